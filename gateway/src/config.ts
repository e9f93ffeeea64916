/** Gateway configuration, parsed once from the environment (DESIGN §8). */
import { parseEnv, ServiceEnv } from '@bm/service-kit';
import { z } from 'zod';

export const GatewayEnv = ServiceEnv.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /**
   * Address the HTTP server binds to: loopback by default, so a local start is not reachable from the
   * network (issue #9); containers set `0.0.0.0` (docker-compose.yml).
   */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Bearer token of `/admin/*`; when unset the admin endpoints answer 401. At least 16 characters. */
  ADMIN_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  /** NATS reply timeout for one request, ms. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  /** Largest accepted request body, bytes. */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 * 1024),
  /** How long a verified credential tuple stays cached, ms. */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
});
export type GatewayConfig = z.infer<typeof GatewayEnv>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): Readonly<GatewayConfig> =>
  parseEnv(GatewayEnv, env);
