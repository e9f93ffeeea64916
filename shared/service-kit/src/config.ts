/**
 * Environment parsing (CONVENTIONS "config.ts per process parses the environment once with zod").
 * Every bad variable is listed in one message; the result is frozen.
 */
import { z } from 'zod';

/** Variables every service reads. */
export const ServiceEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
    .default('postgresql://postgres@127.0.0.1:5432/business'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type ServiceEnv = z.infer<typeof ServiceEnv>;

/** Parses `env` with `schema`; throws one Error that lists every invalid variable. */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): Readonly<z.output<S>> {
  const r = schema.safeParse(env);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(r.data);
}
