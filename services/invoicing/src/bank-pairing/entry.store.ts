/**
 * An entry as a person's pairing changes it (issue #45): the entry locked, its pairings, its status set,
 * and a pairing's amount reduced when its overpayment moves to another invoice. SQL with bind
 * parameters in the caller's transaction.
 */

import { notFound } from '@bm/errors';
import { type EntityManager, execBound } from '@bm/service-kit';

export interface LockedEntry {
  id: string;
  bankAccountId: string;
  direction: 'credit' | 'debit';
  amount: string;
  currency: string;
  bookingDate: string;
  status: string;
  accountCode: string;
}

/** Entry `id` locked for update, with its account's ledger account. @throws 404 */
export async function lockEntry(tx: EntityManager, companyId: string, id: string): Promise<LockedEntry> {
  const rows = await execBound<LockedEntry>(
    tx,
    `select e.id, e.bank_account_id as "bankAccountId", e.direction, e.amount::text as amount, e.currency,
            to_char(e.booking_date, 'YYYY-MM-DD') as "bookingDate", e.status, a.account_code as "accountCode"
       from "invoicing"."bank_entry" e join "invoicing"."bank_account" a on a.id = e.bank_account_id
      where e.company_id = ? and e.id = ? for update of e`,
    [companyId, id],
  );
  if (!rows[0]) throw notFound('Bank entry');
  return rows[0];
}

/** A pairing of the entry: its payment's id, invoice, partner, amount and overpayment (signed). */
export interface EntryPairing {
  id: string;
  invoiceId: string;
  book: 'sales' | 'purchase';
  partnerId: string | null;
  amount: string;
  overpayment: string;
}

/** The entry's pairings. */
export const pairingsOfEntry = (tx: EntityManager, companyId: string, entryId: string) =>
  execBound<EntryPairing>(
    tx,
    `select id, invoice_id as "invoiceId", book, partner_id as "partnerId", amount::text as amount, overpayment::text as overpayment
       from "invoicing"."payment" where company_id = ? and entry_id = ? order by created_at, id`,
    [companyId, entryId],
  );

/** Sets the entry's status and how it got it (`rule`); a person's decision clears the rule's reason. */
export const setEntryStatus = (
  tx: EntityManager,
  companyId: string,
  id: string,
  status: string,
  rule: string | null,
) =>
  execBound(
    tx,
    `update "invoicing"."bank_entry" set status = ?, rule = ?, reason = case when ? = 'unpaired' then reason else null end
      where company_id = ? and id = ?`,
    [status, rule, status, companyId, id],
  );

/** A pairing's payment and its posting after `by` (signed as the payment) of its overpayment moved away. */
export async function reducePairing(tx: EntityManager, companyId: string, paymentId: string, by: string) {
  await execBound(
    tx,
    `update "invoicing"."payment" set amount = amount - ?::numeric, overpayment = overpayment - ?::numeric
      where company_id = ? and id = ?`,
    [by, by, companyId, paymentId],
  );
  await execBound(
    tx,
    `update "invoicing"."accounting_entry" set amount = amount - abs(?::numeric) where company_id = ? and document_id = ?`,
    [by, companyId, paymentId],
  );
}
