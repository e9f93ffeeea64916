/** Invoicing service configuration, parsed once from the environment. */
import { parseEnv, ServiceEnv } from '@bm/service-kit';

export const loadConfig = (env: Record<string, string | undefined> = process.env) =>
  parseEnv(ServiceEnv, env);
export type Config = ReturnType<typeof loadConfig>;
