/**
 * The kind of the next filing of a period (issue #37; §78a(9) and §78(6) of Act 222/2004, instructions to
 * KVDPH_2025 "Druh"): `R` regular first; afterwards only when the books changed since the last filing, then
 * `D` supplementary (the default: only the change) or, up to the deadline, `O` corrective (the full
 * statement again). Pure.
 */
import { AppError, ErrorCode, ErrorKind, validationFailed } from '@bm/errors';

/** A filing's kind as the XML's `Druh` states it. */
export type FilingKind = 'R' | 'O' | 'D';

/**
 * `filed`: how many filings the period has; `changed`: whether the books differ from the last one;
 * `asked`: the caller's `kind`; `deadline`, `today`: `YYYY-MM-DD`.
 * @throws 400 ValidationFailed (`kind`: not R first, O after the deadline); 409 InvalidState (R again, or
 *   nothing changed)
 */
export function nextKind(
  filed: number,
  changed: boolean,
  asked: string | undefined,
  deadline: string,
  today: string,
): FilingKind {
  if (!filed) {
    if (asked && asked !== 'R')
      throw validationFailed([{ path: 'kind', message: 'the first filing of a period is R' }]);
    return 'R';
  }
  if (asked === 'R') throw conflict('the period is filed already; file O or D', 'filed already');
  if (!changed) throw conflict('nothing changed since the last filing', 'nothing to file');
  if (asked === 'O' && today > deadline)
    throw validationFailed([{ path: 'kind', message: `a corrective filing is due by ${deadline}; file D` }]);
  return asked === 'O' ? 'O' : 'D';
}

const conflict = (detail: string, message: string) =>
  new AppError(ErrorKind.conflict, ErrorCode.InvalidState, detail, { errors: [{ path: 'kind', message }] });
