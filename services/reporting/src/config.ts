/** Reporting service configuration, parsed once from the environment. */
import { availableParallelism } from 'node:os';
import { parseEnv, ServiceEnv, withOwnDatabase } from '@bm/service-kit';
import { z } from 'zod';

export const ReportingEnv = ServiceEnv.extend({
  /** Render threads of the worker pool (DESIGN §7); 0 renders in the service's own thread. */
  REPORT_WORKERS: z.coerce.number().int().min(0).max(64).default(availableParallelism()),
  /** Printouts of one company in work at once per replica; more get 503 + Retry-After (issue #12). */
  PRINTOUT_PER_COMPANY: z.coerce.number().int().min(1).default(4),
  /** Printouts of all companies in work at once per replica. */
  PRINTOUT_QUEUE: z.coerce.number().int().min(1).default(32),
  /** Longest one render may take, ms (then 504 and the render thread is ended). */
  PRINTOUT_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
});

export const loadConfig = (env: Record<string, string | undefined> = process.env) =>
  parseEnv(ReportingEnv, withOwnDatabase('reporting', env));
export type Config = z.input<typeof ReportingEnv> & ReturnType<typeof loadConfig>;
