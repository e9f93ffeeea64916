/**
 * The statements' store (issue #45; DESIGN §6d): the bank account a statement belongs to, a file stored
 * before (by its SHA-256), the entries an account has already (by their key), the statement before it,
 * the partners a counterparty's IBAN is known for, the entries a reversal finds, and the inserts. SQL
 * with bind parameters, set-based; the caller's transaction.
 */
import { type EntityManager, execBound, insertAll, pgArray } from '@bm/service-kit';
import {
  AccountingEntryEntity,
  BankAccountEntity,
  BankEntryEntity,
  BankStatementEntity,
} from '../schema/entities.js';

export type BankAccountRow = InstanceType<typeof BankAccountEntity.class>;
export type BankEntryRow = InstanceType<typeof BankEntryEntity.class>;
export type BankStatementRow = InstanceType<typeof BankStatementEntity.class>;

/** The company's bank account with `iban` (electronic format), or null. */
export const accountByIban = (em: EntityManager, iban: string) => em.findOne(BankAccountEntity, { iban });

/** The id of the company's statement stored from the same bytes, or null. */
export async function statementBySha(
  em: EntityManager,
  companyId: string,
  sha256: string,
): Promise<string | null> {
  const rows = await execBound<{ id: string }>(
    em,
    `select id from "invoicing"."bank_statement" where company_id = ? and sha256 = ?`,
    [companyId, sha256],
  );
  return rows[0]?.id ?? null;
}

/** The import's advisory lock on the account: imports of one account (any replica) go one at a time. */
export const lockAccount = (tx: EntityManager, accountId: string) =>
  execBound(tx, 'select pg_advisory_xact_lock(hashtext(?))', [`bank-account:${accountId}`]);

/** Which of `keys` the account has stored already. */
export async function storedEntryKeys(
  tx: EntityManager,
  companyId: string,
  accountId: string,
  keys: readonly string[],
) {
  const rows = await execBound<{ entry_key: string }>(
    tx,
    `select entry_key from "invoicing"."bank_entry" where company_id = ? and bank_account_id = ? and entry_key = any(?::text[])`,
    [companyId, accountId, pgArray(keys)],
  );
  return new Set(rows.map((r) => r.entry_key));
}

/** The account's latest statement that ends before `periodFrom` (its number, end and closing balance). */
export async function statementBefore(
  tx: EntityManager,
  companyId: string,
  accountId: string,
  periodFrom: string,
) {
  const rows = await execBound<{ number: string; period_to: string; closing_balance: string | null }>(
    tx,
    `select number, to_char(period_to, 'YYYY-MM-DD') as period_to, closing_balance::text
       from "invoicing"."bank_statement" where company_id = ? and bank_account_id = ? and period_to < ?::date
      order by period_to desc, created_at desc limit 1`,
    [companyId, accountId, periodFrom],
  );
  return rows[0] ?? null;
}

/**
 * The partners each of `ibans` is known for: in their master data (`partner.iban`), or from an earlier
 * pairing of an entry from that account.
 */
export async function partnersByIban(tx: EntityManager, companyId: string, ibans: readonly string[]) {
  const out = new Map<string, Set<string>>();
  if (!ibans.length) return out;
  const rows = await execBound<{ iban: string; partner_id: string }>(
    tx,
    `select u.iban, p.id as partner_id from "invoicing"."partner" p, unnest(p.iban) as u(iban)
      where p.company_id = ? and p.iban && ?::text[] and u.iban = any(?::text[])
     union
     select e.counterparty_iban, x.partner_id from "invoicing"."bank_entry" e
       join "invoicing"."payment" x on x.entry_id = e.id and x.company_id = e.company_id
      where e.company_id = ? and e.counterparty_iban = any(?::text[]) and x.partner_id is not null`,
    [companyId, pgArray(ibans), pgArray(ibans), companyId, pgArray(ibans)],
  );
  for (const r of rows) {
    const set = out.get(r.iban) ?? new Set<string>();
    set.add(r.partner_id);
    out.set(r.iban, set);
  }
  return out;
}

/** A stored entry a reversal may undo, with its pairings (payment ids). */
export interface StoredEntry {
  id: string;
  accountServicerRef: string | null;
  endToEndId: string | null;
  amount: string;
  counterpartyIban: string | null;
  status: string;
  paymentIds: string[];
}

/** The account's entries (not reversals, not reversed) with one of `refs` or `endToEndIds`. */
export async function entriesToReverse(
  tx: EntityManager,
  companyId: string,
  accountId: string,
  refs: readonly string[],
  endToEndIds: readonly string[],
): Promise<StoredEntry[]> {
  if (!refs.length && !endToEndIds.length) return [];
  const rows = await execBound<{
    id: string;
    account_servicer_ref: string | null;
    end_to_end_id: string | null;
    amount: string;
    counterparty_iban: string | null;
    status: string;
    payment_ids: string[] | null;
  }>(
    tx,
    `select e.id, e.account_servicer_ref, e.end_to_end_id, e.amount::text, e.counterparty_iban, e.status,
            array(select x.id from "invoicing"."payment" x where x.entry_id = e.id and x.company_id = e.company_id) as payment_ids
       from "invoicing"."bank_entry" e
      where e.company_id = ? and e.bank_account_id = ? and not e.reversal and e.status <> 'reversed'
        and (e.account_servicer_ref = any(?::text[]) or e.end_to_end_id = any(?::text[]))
      order by e.booking_date, e.created_at
      for update`,
    [companyId, accountId, pgArray(refs), pgArray(endToEndIds)],
  );
  return rows.map((r) => ({
    id: r.id,
    accountServicerRef: r.account_servicer_ref,
    endToEndId: r.end_to_end_id,
    amount: r.amount,
    counterpartyIban: r.counterparty_iban,
    status: r.status,
    paymentIds: r.payment_ids ?? [],
  }));
}

/** Stored entries `ids` reversed by the entries `by` (pairwise); their postings (fees, interest) removed. */
export async function markReversed(
  tx: EntityManager,
  companyId: string,
  ids: readonly string[],
  by: readonly string[],
) {
  if (!ids.length) return;
  await execBound(
    tx,
    `update "invoicing"."bank_entry" e set status = 'reversed', reversal_of = u.by
       from unnest(?::uuid[], ?::uuid[]) as u(id, by) where e.id = u.id and e.company_id = ?`,
    [pgArray(ids), pgArray(by), companyId],
  );
  await execBound(
    tx,
    `delete from "invoicing"."accounting_entry" where company_id = ? and document_id = any(?::uuid[])`,
    [companyId, pgArray(ids)],
  );
}

/** Inserts the statement, its new entries and the postings of fees and interest (one statement). */
export async function insertStatement(
  tx: EntityManager,
  statement: Record<string, unknown>,
  entries: Record<string, unknown>[],
  postings: Record<string, unknown>[],
) {
  await insertAll(tx, [
    { entity: BankStatementEntity, rows: [statement] },
    { entity: BankEntryEntity, rows: entries },
    { entity: AccountingEntryEntity, rows: postings },
  ]);
}
