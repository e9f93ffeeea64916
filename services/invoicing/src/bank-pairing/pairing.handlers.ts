/**
 * The `invoicing.bank-entries.*` change handlers and `invoicing.overpayments.list` (issue #45): transport
 * only; the work is in manual-pairing.ts through the pairing kind.
 */
import {
  ignoreBankEntry,
  listOverpayments as listOverpaymentsContract,
  pairBankEntry,
  unpairBankEntry,
} from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { listOverpayments } from './overpayments.js';
import { changeEntry } from './pairing.kind.js';

type X = { em: Ctx['em'] };

/** Registers the pairing handlers. */
export function registerBankPairing(kit: ServiceKit): void {
  const o = kit.serveOpts;
  serve<typeof pairBankEntry, X>(
    kit.service,
    pairBankEntry,
    (q, ctx) => changeEntry(ctx, q.id, { op: 'pair', invoiceId: q.data.invoiceId, amount: q.data.amount }),
    o,
  );
  serve<typeof unpairBankEntry, X>(
    kit.service,
    unpairBankEntry,
    (q, ctx) => changeEntry(ctx, q.id, { op: 'unpair', pairingId: q.pairingId }),
    o,
  );
  serve<typeof ignoreBankEntry, X>(
    kit.service,
    ignoreBankEntry,
    (q, ctx) => changeEntry(ctx, q.id, { op: 'ignore' }),
    o,
  );
  serve<typeof listOverpaymentsContract, X>(
    kit.service,
    listOverpaymentsContract,
    (q, ctx) => listOverpayments(ctx.em, ctx.companyId!, q.partnerId),
    o,
  );
}
