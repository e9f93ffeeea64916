/**
 * Reads an ISO 20022 bank statement, `camt.053` (BankToCustomerStatement) versions `.001.02` to `.001.08`
 * as Slovak banks export them, into plain data (issue #45; DESIGN §6d). Pure.
 *
 * Hostile input: a document with a DTD (`<!DOCTYPE`, hence any entity declaration) is refused before
 * parsing, and the parser expands no entities. Not well-formed XML, another root or namespace than
 * `urn:iso:std:iso:20022:tech:xsd:camt.053.001.0N`, a file of several statements, amounts that are not
 * decimals with at most two places, an entry in another currency than the account: a {@link CamtReadError}
 * naming the element. Only booked entries (`Sts` BOOK) are statement entries; pending and information-only
 * ones are left out (they may still change).
 *
 * Amounts are decimal strings as written (never numbers); an entry's `amount` is positive with
 * `direction` credit/debit; balances are signed (a DBIT balance negative). Dates `YYYY-MM-DD`.
 */
import { dec } from '@bm/money';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { type PaymentSymbols, readSymbols } from './symbols.js';

/** Why a file is not a statement we can read; `path` names the element (e.g. `Stmt/Ntry[3]/Amt`). */
export class CamtReadError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** One booked entry of the statement. */
export interface CamtEntry {
  /** 1-based position among the statement's `Ntry` elements. */
  index: number;
  amount: string;
  currency: string;
  direction: 'credit' | 'debit';
  reversal: boolean;
  bookingDate: string;
  valueDate: string | null;
  /** The bank's reference of the entry (`Ntry/AcctSvcrRef`, else the transaction's). */
  accountServicerRef: string | null;
  endToEndId: string | null;
  /** `Domain/Family/SubFamily` (e.g. `PMNT/RCDT/ESCT`, `ACMT/MDOP/CHRG`), else the proprietary code. */
  bankTransactionCode: string | null;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  remittance: string | null;
  reference: string | null;
  symbols: PaymentSymbols;
}

export interface CamtStatement {
  /** `001.02` … `001.08`. */
  version: string;
  messageId: string;
  statementId: string;
  /** The bank's `LglSeqNb`, else `ElctrncSeqNb`, else `Id`. */
  number: string;
  iban: string;
  currency: string | null;
  periodFrom: string;
  periodTo: string;
  /** Opening (OPBD, else PRCD) and closing (CLBD) booked balances, signed; null when the bank gives none. */
  openingBalance: string | null;
  closingBalance: string | null;
  entries: CamtEntry[];
}

const NS = /^urn:iso:std:iso:20022:tech:xsd:camt\.053\.(001\.0[2-8])$/;
type X = Record<string, any>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ['Stmt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd'].includes(name),
});

const txt = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object') {
    const t = (v as X)['#text'];
    return t === undefined || t === null ? null : String(t).trim() || null;
  }
  return String(v).trim() || null;
};

/** An amount as written: a decimal with at most two places (SEPA euro amounts). */
function amountOf(v: unknown, path: string): { amount: string; currency: string | null } {
  const t = txt(v);
  if (t === null || !/^\d{1,15}(\.\d{1,5})?$/.test(t))
    throw new CamtReadError(`${path} is not an amount: ${t ?? '(missing)'}`, path);
  const [int, frac = ''] = t.split('.');
  if (frac.replace(/0+$/, '').length > 2)
    throw new CamtReadError(`${path} ${t} has more than two decimals`, path);
  const amount = `${int!.replace(/^0+(?=\d)/, '')}.${frac.replace(/0+$/, '').padEnd(2, '0')}`;
  const ccy = typeof v === 'object' ? txt((v as X)['@_Ccy']) : null;
  return { amount, currency: ccy };
}

/** `Dt` or `DtTm` (its date part). */
function dateOf(v: unknown): string | null {
  if (!v || typeof v !== 'object') return null;
  const d = txt((v as X).Dt) ?? txt((v as X).DtTm)?.slice(0, 10) ?? null;
  return d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : null;
}

const signed = (amount: string, cdtDbt: string | null) =>
  cdtDbt === 'DBIT' && !dec(amount).isZero() ? `-${amount}` : amount;

function balanceOf(bals: X[], codes: string[]): string | null {
  for (const code of codes) {
    const b = bals.find((x) => txt(x?.Tp?.CdOrPrtry?.Cd) === code);
    if (b) return signed(amountOf(b.Amt, `Stmt/Bal[${code}]/Amt`).amount, txt(b.CdtDbtInd));
  }
  return null;
}

/** A party's name: `Nm` directly (.001.02) or under `Pty` (.001.08). */
const nameOf = (party: X | undefined): string | null => txt(party?.Nm) ?? txt(party?.Pty?.Nm);

function codeOf(bk: X | undefined): string | null {
  const d = bk?.Domn;
  if (d) return [txt(d.Cd), txt(d.Fmly?.Cd), txt(d.Fmly?.SubFmlyCd)].filter(Boolean).join('/') || null;
  return txt(bk?.Prtry?.Cd);
}

function entryOf(n: X, index: number, accountCcy: string | null): CamtEntry | null {
  const path = `Stmt/Ntry[${index}]`;
  const status = txt(n.Sts) ?? txt(n.Sts?.Cd) ?? txt(n.Sts?.Prtry);
  if (status !== 'BOOK') return null;
  const { amount, currency } = amountOf(n.Amt, `${path}/Amt`);
  if (!currency) throw new CamtReadError(`${path}/Amt has no Ccy`, `${path}/Amt`);
  if (accountCcy && currency !== accountCcy)
    throw new CamtReadError(`${path}/Amt is in ${currency}, the account in ${accountCcy}`, `${path}/Amt`);
  const cd = txt(n.CdtDbtInd);
  if (cd !== 'CRDT' && cd !== 'DBIT')
    throw new CamtReadError(`${path}/CdtDbtInd must be CRDT or DBIT`, `${path}/CdtDbtInd`);
  const bookingDate = dateOf(n.BookgDt) ?? dateOf(n.ValDt);
  if (!bookingDate) throw new CamtReadError(`${path}/BookgDt is missing`, `${path}/BookgDt`);
  const tx: X = n.NtryDtls?.[0]?.TxDtls?.[0] ?? {};
  const parties: X = tx.RltdPties ?? {};
  const credit = cd === 'CRDT';
  // Money in: the counterparty is the debtor; money out: the creditor.
  const party = credit ? parties.Dbtr : parties.Cdtr;
  const account = credit ? parties.DbtrAcct : parties.CdtrAcct;
  const ustrd: string[] = (tx.RmtInf?.Ustrd ?? []).map(txt).filter(Boolean);
  const strd: X[] = tx.RmtInf?.Strd ?? [];
  const reference = strd.map((s) => txt(s?.CdtrRefInf?.Ref)).find(Boolean) ?? null;
  const endToEndId = txt(tx.Refs?.EndToEndId);
  const rvsl = txt(n.RvslInd);
  return {
    index,
    amount,
    currency,
    direction: credit ? 'credit' : 'debit',
    reversal: rvsl === 'true' || rvsl === '1',
    bookingDate,
    valueDate: dateOf(n.ValDt),
    accountServicerRef: txt(n.AcctSvcrRef) ?? txt(tx.Refs?.AcctSvcrRef),
    endToEndId,
    bankTransactionCode: codeOf(n.BkTxCd) ?? codeOf(tx.BkTxCd),
    counterpartyName: nameOf(party),
    counterpartyIban: txt(account?.Id?.IBAN)?.replace(/\s+/g, '').toUpperCase() ?? null,
    remittance: ustrd.join(' ') || txt(n.AddtlNtryInf),
    reference,
    symbols: readSymbols(endToEndId, reference, [
      ...ustrd,
      ...(txt(n.AddtlNtryInf) ? [txt(n.AddtlNtryInf)!] : []),
    ]),
  };
}

/** Reads the file's bytes (UTF-8). @throws CamtReadError */
export function readCamt053(bytes: Uint8Array): CamtStatement {
  const xml = Buffer.from(bytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (/<!DOCTYPE/i.test(xml))
    throw new CamtReadError('a DTD is not allowed in a bank statement', '(document)');
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new CamtReadError(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`, '(document)');
  const doc = parser.parse(xml) as X;
  const root = doc.Document;
  // The parser drops namespace declarations: the root's own is read from the text.
  const ns = /<(?:\w+:)?Document\b[^>]*\sxmlns(?::\w+)?="([^"]+)"/.exec(xml)?.[1] ?? '';
  const m = NS.exec(ns);
  if (!root || !m || !root.BkToCstmrStmt)
    throw new CamtReadError(
      `expected a camt.053 bank statement (Document/BkToCstmrStmt in urn:iso:std:iso:20022:tech:xsd:camt.053.001.02 to .001.08), got ${Object.keys(doc).filter((k) => !k.startsWith('?'))[0] ?? 'nothing'}${ns ? ` in ${ns}` : ''}`,
      '(document)',
    );
  const msg = root.BkToCstmrStmt as X;
  const stmts: X[] = msg.Stmt ?? [];
  if (stmts.length !== 1)
    throw new CamtReadError(`expected one statement (Stmt) in the file, found ${stmts.length}`, 'Stmt');
  const s = stmts[0]!;
  const iban = txt(s.Acct?.Id?.IBAN)?.replace(/\s+/g, '').toUpperCase();
  if (!iban)
    throw new CamtReadError(
      'Stmt/Acct/Id/IBAN is missing: the account must be named by its IBAN',
      'Stmt/Acct/Id/IBAN',
    );
  const statementId = txt(s.Id);
  if (!statementId) throw new CamtReadError('Stmt/Id is missing', 'Stmt/Id');
  const currency = txt(s.Acct?.Ccy);
  const entries = ((s.Ntry ?? []) as X[]).flatMap((n, i) => entryOf(n, i + 1, currency) ?? []);
  const dates = entries.map((e) => e.bookingDate).sort();
  const created = txt(s.CreDtTm)?.slice(0, 10) ?? null;
  const periodFrom = txt(s.FrToDt?.FrDtTm)?.slice(0, 10) ?? dates[0] ?? created;
  const periodTo = txt(s.FrToDt?.ToDtTm)?.slice(0, 10) ?? dates.at(-1) ?? created;
  if (!periodFrom || !periodTo)
    throw new CamtReadError('Stmt/FrToDt is missing and nothing dates the statement', 'Stmt/FrToDt');
  const bals: X[] = s.Bal ?? [];
  return {
    version: m[1]!,
    messageId: txt(msg.GrpHdr?.MsgId) ?? statementId,
    statementId,
    number: txt(s.LglSeqNb) ?? txt(s.ElctrncSeqNb) ?? statementId,
    iban,
    currency,
    periodFrom,
    periodTo,
    openingBalance: balanceOf(bals, ['OPBD', 'PRCD']),
    closingBalance: balanceOf(bals, ['CLBD']),
    entries,
  };
}
