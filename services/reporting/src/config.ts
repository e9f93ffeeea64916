/** Reporting service configuration, parsed once from the environment. */
import { availableParallelism } from 'node:os';
import { parseEnv, ServiceEnv } from '@bm/service-kit';
import { z } from 'zod';

export const ReportingEnv = ServiceEnv.extend({
  /** Render threads of the worker pool (DESIGN §7); 0 renders in the service's own thread. */
  REPORT_WORKERS: z.coerce.number().int().min(0).max(64).default(availableParallelism()),
});

export const loadConfig = (env: Record<string, string | undefined> = process.env) =>
  parseEnv(ReportingEnv, env);
export type Config = z.input<typeof ReportingEnv> & ReturnType<typeof loadConfig>;
