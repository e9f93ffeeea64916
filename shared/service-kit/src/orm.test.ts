import { ErrorCode } from '@bm/errors';
import { describe, expect, it } from 'vitest';
import { mapDbError } from './orm.js';

const pgError = (code: string) => Object.assign(new Error('pg'), { code });

describe('mapDbError (DESIGN §2: never a 500 for what a client sent)', () => {
  it('maps data exceptions to 400 ValidationFailed and deadlocks or serialization failures to 409', () => {
    expect(mapDbError(pgError('22003'))).toMatchObject({
      kind: 'invalid',
      code: ErrorCode.ValidationFailed,
      message: 'a number is too large',
    });
    expect(mapDbError(pgError('22P05'))).toMatchObject({ kind: 'invalid', message: 'a value is not valid' });
    expect(mapDbError(pgError('40P01'))).toMatchObject({ kind: 'conflict', code: ErrorCode.Conflict });
    expect(mapDbError(pgError('40001'))).toMatchObject({ kind: 'conflict', code: ErrorCode.Conflict });
  });

  it('maps the connection limit, a shutting-down server, a lost connection and a pool timeout to 503 with Retry-After (issue #12)', () => {
    for (const code of ['53300', '57P01', '57P03', '08006'])
      expect(mapDbError(pgError(code))).toMatchObject({
        kind: 'unavailable',
        code: ErrorCode.ServiceUnavailable,
        retryAfterSeconds: 2,
      });
    expect(mapDbError(new Error('timeout exceeded when trying to connect'))).toMatchObject({
      kind: 'unavailable',
      retryAfterSeconds: 1,
    });
  });

  it('maps what a failover does to a connection to 503, not 500 (issue #46)', () => {
    // A primary demoted under the connection, a crashed server, sockets cut by HAProxy or refused.
    for (const code of ['25006', '57P02', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE'])
      expect(mapDbError(pgError(code))).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 2 });
    for (const message of [
      'Connection terminated unexpectedly',
      'Client has encountered a connection error and is not queryable',
    ])
      expect(mapDbError(new Error(message))).toMatchObject({
        kind: 'unavailable',
        retryAfterSeconds: 2,
        // A connection lost during the commit leaves the outcome unknown: the answer does not say "nothing
        // was stored", and the gateway keeps the Idempotency-Key locked.
        message: expect.stringMatching(/may have been stored/),
        outcomeUnknown: true,
      });
    // A statement's own error is still its own.
    expect(mapDbError(pgError('42P01'))).toMatchObject({ code: '42P01' });
  });

  it('maps statement and lock timeouts of the request deadline to 504 "nothing was stored"', () => {
    for (const code of ['57014', '55P03'])
      expect(mapDbError(pgError(code))).toMatchObject({
        kind: 'timeout',
        code: ErrorCode.Timeout,
        message: expect.stringMatching(/nothing was stored/),
      });
  });

  it('maps a raw unique violation of the record number to 409 DuplicateRecordNumber', () => {
    const e = Object.assign(new Error('duplicate key'), {
      code: '23505',
      detail: 'Key (company_id, record_number)=(x, VY1) already exists.',
    });
    expect(mapDbError(e)).toMatchObject({ kind: 'conflict', code: ErrorCode.DuplicateRecordNumber });
  });

  it('passes other errors through unchanged', () => {
    const e = pgError('42P01');
    expect(mapDbError(e)).toBe(e);
  });
});
