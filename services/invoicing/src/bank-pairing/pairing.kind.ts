/**
 * A person's change of an entry's pairings is a document kind (issue #45; DESIGN §6d), run by
 * `runDocument` in the group commit of `invoicing:bank-pairing`: pairing, removing a pairing, ignoring.
 * Its record number is the entry's id (`storedNumbering`: nothing is counted); changes of one entry share
 * a lock and go in order; the entry's and the invoices' row locks keep other groups and imports out.
 * The reply is the entry as stored after the commit.
 */
import type { BankEntry } from '@bm/contracts';
import { type Ctx, type DocumentKind, runDocument, storedNumbering } from '@bm/service-kit';
import { getEntry } from '../bank-statement/index.js';
import { ignoreEntry, pairManually, unpairManually } from './manual-pairing.js';

/** The change asked for on entry `entryId`. */
export type EntryChange =
  | { op: 'pair'; invoiceId: string; amount?: string }
  | { op: 'unpair'; pairingId: string }
  | { op: 'ignore' };

export interface EntryChangeInput {
  ctx: Ctx;
  entryId: string;
  change: EntryChange;
}

export const entryChangeKind: DocumentKind<EntryChangeInput, null, string, BankEntry> = {
  key: 'invoicing:bank-pairing',
  declare: (d) => ({
    numbering: storedNumbering('"invoicing"."bank_entry"', d.ctx.companyId!, d.entryId),
    locks: [`bank-entry:${d.entryId}`],
  }),
  read: async () => null,
  decide: async (d, _s, doc) => {
    const companyId = d.ctx.companyId!;
    const c = d.change;
    if (c.op === 'pair') await pairManually(doc.tx, companyId, d.entryId, c.invoiceId, c.amount);
    else if (c.op === 'unpair') await unpairManually(doc.tx, companyId, d.entryId, c.pairingId);
    else await ignoreEntry(doc.tx, companyId, d.entryId);
    return d.entryId;
  },
  writer: () => [],
  reply: (id, _n, d) => getEntry(d.ctx.em.fork(), d.ctx.companyId!, id),
};

/** Runs one change of an entry's pairings. */
export const changeEntry = (ctx: Ctx, entryId: string, change: EntryChange) =>
  runDocument(entryChangeKind, ctx.em, { ctx, entryId, change });
