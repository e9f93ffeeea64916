/**
 * The delivery state machine (issue #23) against an independent reference: for every order of reports,
 * the state is what the ordered, idempotent rule says, written here without the production code.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyReport, type DeliveryState, issuedState, resend, type StatusReport } from './delivery.js';

const at = new Date('2027-01-04T10:00:00Z');
const report = (
  status: StatusReport['status'],
  attempt = 1,
  extra: Partial<StatusReport> = {},
): StatusReport => ({
  attempt,
  status,
  transmissionId: `t-${attempt}`,
  mls: status === 'delivered' ? 'AP' : status === 'rejected' ? 'RE' : null,
  reasons: status === 'rejected' ? [{ code: 'FD', message: 'unknown participant' }] : [],
  ...extra,
});
const fold = (reports: StatusReport[], start = issuedState()) =>
  reports.reduce<DeliveryState>((s, r) => applyReport(s, r, at) ?? s, start);

/** The reference: the latest-stage report of the current attempt, the first final one among equals. */
function reference(reports: StatusReport[], attempt = 1): string {
  const stage = (s: string) => ({ queued: 1, sent: 2, delivered: 3, rejected: 3, failed: 3 })[s] ?? 0;
  let best = 'issued';
  for (const r of reports) if (r.attempt === attempt && stage(r.status) > stage(best)) best = r.status;
  return best;
}

describe('delivery status', () => {
  it('goes issued → queued → sent → delivered with the MLS code and the time of delivery', () => {
    const s = fold([report('queued'), report('sent'), report('delivered')]);
    expect(s).toMatchObject({ status: 'delivered', mls: 'AP', transmissionId: 't-1', deliveredAt: at });
  });

  it('a late sent never overwrites delivered, a repeated report changes nothing', () => {
    const delivered = fold([report('queued'), report('delivered')]);
    expect(applyReport(delivered, report('sent'), at)).toBeNull();
    expect(applyReport(delivered, report('delivered'), at)).toBeNull();
    expect(applyReport(delivered, report('rejected'), at)).toBeNull();
  });

  it('a report of another attempt changes nothing; resend only after failed', () => {
    const failed = fold([report('queued'), report('failed')]);
    expect(() => resend(fold([report('sent')]))).toThrow(/only after it failed/);
    const again = resend(failed);
    expect(again).toMatchObject({ status: 'issued', attempt: 2, mls: null, reasons: [] });
    expect(applyReport(again, report('delivered', 1), at)).toBeNull();
    expect(fold([report('queued', 2), report('delivered', 2)], again)).toMatchObject({
      status: 'delivered',
      attempt: 2,
    });
  });

  it('refuses MLS codes that contradict the status', () => {
    expect(() => applyReport(issuedState(), report('delivered', 1, { mls: 'RE' }), at)).toThrow(/AP or AB/);
    expect(() => applyReport(issuedState(), report('rejected', 1, { mls: 'AP' }), at)).toThrow(/RE or none/);
    expect(() => applyReport(issuedState(), report('sent', 1, { mls: 'AB' }), at)).toThrow(/no MLS code/);
  });

  it('for every order of reports of two attempts the status is the reference one', () => {
    const arb = fc.array(
      fc.record({
        status: fc.constantFrom('queued', 'sent', 'delivered', 'rejected', 'failed') as fc.Arbitrary<
          StatusReport['status']
        >,
        attempt: fc.constantFrom(1, 2),
      }),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(arb, (rs) => {
        const reports = rs.map((r) => report(r.status, r.attempt));
        expect(fold(reports).status).toBe(reference(reports));
        // Idempotent: the same reports again, in any order, change nothing more.
        const once = fold(reports);
        expect(fold([...reports].reverse(), once)).toEqual(once);
      }),
      { numRuns: 500 },
    );
  });
});
