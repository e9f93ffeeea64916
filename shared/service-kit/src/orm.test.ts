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

  it('passes other errors through unchanged', () => {
    const e = pgError('57P01');
    expect(mapDbError(e)).toBe(e);
  });
});
