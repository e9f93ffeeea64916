/**
 * `PEPPOL_AP=loopback` (issue #23): this stack's companies form a small Peppol network. A document whose
 * receiver endpoint is a company here is delivered to it through the inbound path (MLS `AP`); any other
 * receiver is an unknown participant (`rejected`, MLS `RE`, reason `FD`). Delivering twice is harmless:
 * the receiving side answers a document it has as already received.
 */
import type { Outbound, Outcome, Receive, Transport } from './transport.js';

export function loopbackTransport(deps: {
  /** The company whose `peppolId` is `endpoint`, or null. */
  companyOf: (endpoint: string) => Promise<string | null>;
}): Transport {
  let receive: Receive | undefined;
  const outcomes = new Map<string, Outcome>();
  return {
    name: 'loopback',
    async submit(doc: Outbound): Promise<Outcome> {
      const receiver = await deps.companyOf(doc.receiverId);
      let outcome: Outcome;
      if (!receiver)
        outcome = {
          status: 'rejected',
          sent: true,
          reasons: [
            {
              code: 'FD',
              message: `unknown participant ${doc.receiverId}: no company of this network has it`,
            },
          ],
        };
      else if (!receive) throw new Error('the loopback network is not started');
      else {
        const r = await receive(doc.document, 'loopback');
        outcome = r.ok
          ? { status: 'delivered', mls: 'AP' }
          : { status: 'rejected', sent: true, reasons: [{ code: r.code, message: r.reason }] };
      }
      outcomes.set(doc.transmissionId, outcome);
      return outcome;
    },
    async follow(doc) {
      return outcomes.get(doc.transmissionId) ?? 'unknown';
    },
    async registered(peppolId) {
      return (await deps.companyOf(peppolId)) !== null;
    },
    async startInbound(r) {
      receive = r;
      return async () => {
        receive = undefined;
      };
    },
  };
}
