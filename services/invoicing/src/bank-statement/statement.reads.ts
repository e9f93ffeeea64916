/**
 * Reads of statements and entries (issue #45): a statement with its entries, the list of statements, the
 * list of entries by status and account, each entry with its pairings (payments with the entry as their
 * source, with the invoice's record number) and what is still unallocated. Amounts 2 decimals.
 */
import type { BankEntry, BankStatement } from '@bm/contracts';
import { notFound } from '@bm/errors';
import { dec, fmt } from '@bm/money';
import { type EntityManager, execBound, pgArray } from '@bm/service-kit';
import { BankAccountEntity, BankEntryEntity, BankStatementEntity } from '../schema/entities.js';
import type { BankEntryRow, BankStatementRow } from './statement.store.js';

const day = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : String(d).slice(0, 10));

interface PairingRow {
  id: string;
  entry_id: string;
  invoice_id: string;
  book: 'sales' | 'purchase';
  partner_id: string | null;
  amount: string;
  overpayment: string;
  date: string;
  record_number: string | null;
}

/** The pairings of entries `ids`, by entry. */
async function pairingsOf(em: EntityManager, companyId: string, ids: readonly string[]) {
  const out = new Map<string, PairingRow[]>();
  if (!ids.length) return out;
  const rows = await execBound<PairingRow>(
    em,
    `select x.id, x.entry_id, x.invoice_id, x.book, x.partner_id, x.amount::text, x.overpayment::text,
            to_char(x.date, 'YYYY-MM-DD') as date,
            coalesce(s.record_number, p.record_number) as record_number
       from "invoicing"."payment" x
       left join "invoicing"."sales_invoice" s on x.book = 'sales' and s.id = x.invoice_id
       left join "invoicing"."purchase_invoice" p on x.book = 'purchase' and p.id = x.invoice_id
      where x.company_id = ? and x.entry_id = any(?::uuid[])
      order by x.created_at, coalesce(s.date_created, p.date_created), coalesce(s.record_number, p.record_number), x.id`,
    [companyId, pgArray(ids)],
  );
  for (const r of rows) out.set(r.entry_id, [...(out.get(r.entry_id) ?? []), r]);
  return out;
}

type Posting = BankEntry['accountingEntries'][number];

/** The postings of entries `ids` (a fee's or interest's) and of their pairings, by entry, in line order. */
async function postingsOf(em: EntityManager, companyId: string, ids: readonly string[]) {
  const out = new Map<string, Posting[]>();
  if (!ids.length) return out;
  const rows = await execBound<Posting & { entry_id: string }>(
    em,
    `select coalesce(x.entry_id, a.document_id) as entry_id, a.debit_account as "debitAccount",
            a.credit_account as "creditAccount", a.amount::text as amount, a.description
       from "invoicing"."accounting_entry" a
       left join "invoicing"."payment" x on x.id = a.document_id and x.company_id = a.company_id
      where a.company_id = ? and (a.document_id = any(?::uuid[]) or x.entry_id = any(?::uuid[]))
      order by x.created_at nulls first, a.line_no`,
    [companyId, pgArray(ids), pgArray(ids)],
  );
  for (const { entry_id, ...p } of rows)
    out.set(entry_id, [...(out.get(entry_id) ?? []), { ...p, amount: fmt(p.amount) }]);
  return out;
}

/** The entry as the API shows it, with its pairings; `unallocated` what no pairing took (paired entries only). */
export function entryDto(e: BankEntryRow, pairings: PairingRow[], postings: Posting[] = []): BankEntry {
  const allocated = pairings.reduce((a, p) => a.plus(dec(p.amount).abs()), dec(0));
  const settled = e.status === 'posted' || e.status === 'reversed' || e.status === 'ignored';
  return {
    id: e.id,
    statementId: e.statementId,
    bankAccountId: e.bankAccountId,
    bookingDate: day(e.bookingDate),
    valueDate: e.valueDate ? day(e.valueDate) : null,
    direction: e.direction as BankEntry['direction'],
    amount: fmt(e.amount),
    currency: e.currency,
    reversal: e.reversal,
    accountServicerRef: e.accountServicerRef ?? null,
    endToEndId: e.endToEndId ?? null,
    bankTransactionCode: e.bankTransactionCode ?? null,
    counterpartyName: e.counterpartyName ?? null,
    counterpartyIban: e.counterpartyIban ?? null,
    remittance: e.remittance ?? null,
    reference: e.reference ?? null,
    symbolVariable: e.symbolVariable ?? null,
    symbolSpecific: e.symbolSpecific ?? null,
    symbolConstant: e.symbolConstant ?? null,
    status: e.status as BankEntry['status'],
    rule: e.rule ?? null,
    reason: e.reason ?? null,
    candidates: (e.candidates ?? []) as BankEntry['candidates'],
    pairings: pairings.map((p) => ({
      id: p.id,
      invoiceId: p.invoice_id,
      book: p.book,
      recordNumber: p.record_number,
      partnerId: p.partner_id,
      amount: fmt(p.amount),
      overpayment: fmt(p.overpayment),
      date: p.date,
    })),
    unallocated: settled ? '0.00' : fmt(dec(e.amount).minus(allocated)),
    reversalOf: e.reversalOf ?? null,
    accountingEntries: postings,
  };
}

/** Entries with their pairings, in the order given. */
export async function entryDtos(
  em: EntityManager,
  companyId: string,
  entries: BankEntryRow[],
): Promise<BankEntry[]> {
  const ids = entries.map((e) => e.id);
  const [pairings, postings] = await Promise.all([
    pairingsOf(em, companyId, ids),
    postingsOf(em, companyId, ids),
  ]);
  return entries.map((e) => entryDto(e, pairings.get(e.id) ?? [], postings.get(e.id) ?? []));
}

/** Entry `id` as stored now. @throws 404 */
export async function getEntry(em: EntityManager, companyId: string, id: string): Promise<BankEntry> {
  const e = await em.findOne(BankEntryEntity, { id }, { disableIdentityMap: true });
  if (!e) throw notFound('Bank entry');
  return (await entryDtos(em, companyId, [e]))[0]!;
}

/** The statement's header (its account's IBAN joined). */
export function statementHeader(s: BankStatementRow, iban: string) {
  return {
    id: s.id,
    bankAccountId: s.bankAccountId,
    iban,
    number: s.number,
    statementId: s.statementId,
    messageId: s.messageId,
    format: s.format,
    periodFrom: day(s.periodFrom),
    periodTo: day(s.periodTo),
    currency: s.currency,
    openingBalance: s.openingBalance == null ? null : fmt(s.openingBalance),
    closingBalance: s.closingBalance == null ? null : fmt(s.closingBalance),
    warnings: s.warnings ?? [],
    entryCount: s.entryCount,
    newEntries: s.newEntries,
    sha256: s.sha256,
    createdAt: new Date(s.createdAt).toISOString(),
  };
}

/** Statement `id` with the entries it stored, in booking order. @throws 404 */
export async function getStatement(em: EntityManager, companyId: string, id: string): Promise<BankStatement> {
  const s = await em.findOne(
    BankStatementEntity,
    { id },
    { disableIdentityMap: true, exclude: ['bytes'] as never },
  );
  if (!s) throw notFound('Bank statement');
  const account = await em.findOne(BankAccountEntity, { id: s.bankAccountId }, { disableIdentityMap: true });
  const entries = await em.find(
    BankEntryEntity,
    { statementId: id },
    { orderBy: { position: 'asc', id: 'asc' }, disableIdentityMap: true },
  );
  return { ...statementHeader(s, account?.iban ?? ''), entries: await entryDtos(em, companyId, entries) };
}

/** The statement's bytes as received and their SHA-256. @throws 404 */
export async function statementDocument(em: EntityManager, companyId: string, id: string) {
  const rows = await execBound<{ bytes: Buffer; sha256: string }>(
    em,
    `select bytes, sha256 from "invoicing"."bank_statement" where company_id = ? and id = ?`,
    [companyId, id],
  );
  if (!rows[0]) throw notFound('Bank statement');
  return { document: Buffer.from(rows[0].bytes).toString('base64'), sha256: rows[0].sha256 };
}

/** Statements, newest period first, of one account or all. */
export async function listStatements(
  em: EntityManager,
  q: { accountId?: string; page?: number; pageSize?: number },
) {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 50;
  const where = q.accountId ? { bankAccountId: q.accountId } : {};
  const [rows, total] = await em.findAndCount(BankStatementEntity, where, {
    orderBy: { periodTo: 'desc', createdAt: 'desc', id: 'asc' },
    limit: pageSize,
    offset: (page - 1) * pageSize,
    exclude: ['bytes'] as never,
    disableIdentityMap: true,
  });
  const accounts = new Map(
    (await em.find(BankAccountEntity, {}, { disableIdentityMap: true })).map((a) => [a.id, a.iban]),
  );
  return {
    page,
    pageSize,
    totalCount: total,
    items: rows.map((s) => statementHeader(s, accounts.get(s.bankAccountId) ?? '')),
  };
}

/** Entries by status and account, oldest booking first (the work list of unpaired ones). */
export async function listEntries(
  em: EntityManager,
  companyId: string,
  q: { status?: string; accountId?: string; page?: number; pageSize?: number },
) {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 50;
  const where: Record<string, unknown> = {};
  if (q.status) where.status = q.status;
  if (q.accountId) where.bankAccountId = q.accountId;
  const [rows, total] = await em.findAndCount(BankEntryEntity, where, {
    orderBy: { bookingDate: 'asc', createdAt: 'asc', position: 'asc', id: 'asc' },
    limit: pageSize,
    offset: (page - 1) * pageSize,
    disableIdentityMap: true,
  });
  return { page, pageSize, totalCount: total, items: await entryDtos(em, companyId, rows) };
}
