/**
 * Structured logging (pino) with secrets redacted (DESIGN §3: Authorization headers and secrets never
 * appear in logs).
 */
import { traceLogFields } from '@bm/telemetry';
import { type Logger, pino } from 'pino';

export type { Logger };

/** Paths pino replaces by `[redacted]` wherever they occur in a log record. */
export const redactPaths = [
  'authorization',
  'Authorization',
  'clientsecret',
  'ClientSecret',
  'password',
  'clientSecret',
  // Issue #35: SAPI-SK credentials and tokens, and the stored ciphertext of a secret.
  'client_secret',
  'access_token',
  'secretCiphertext',
  '*.client_secret',
  '*.access_token',
  '*.secretCiphertext',
  '*.authorization',
  '*.Authorization',
  '*.clientsecret',
  '*.ClientSecret',
  '*.clientSecret',
  '*.password',
  'req.headers.authorization',
  'req.headers.clientsecret',
  'headers.authorization',
  'headers.clientsecret',
];

/**
 * Creates the process logger; `level` defaults to `info` (config's LOG_LEVEL). While tracing is on, each
 * record carries the active span's `trace_id` and `span_id` (issue #25).
 */
export function createLogger(name: string, level = 'info', destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      name,
      level,
      redact: { paths: redactPaths, censor: '[redacted]' },
      base: { service: name },
      mixin: traceLogFields,
    },
    destination as any,
  );
}
