/** Warehouse service configuration, parsed once from the environment. */
import { parseEnv, ServiceEnv, withOwnDatabase } from '@bm/service-kit';

export const loadConfig = (env: Record<string, string | undefined> = process.env) =>
  parseEnv(ServiceEnv, withOwnDatabase('warehouse', env));
export type Config = ReturnType<typeof loadConfig>;
