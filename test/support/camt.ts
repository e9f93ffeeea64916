/**
 * camt.053 bank statements for the tests (issue #45), written as Slovak banks export them: version
 * `.001.02` (party name directly under Dbtr/Cdtr, status a code) or `.001.08` (party under `Pty`, status
 * `Sts/Cd`), the symbols wherever the test puts them (EndToEndId, Ustrd, Strd). Built with
 * fast-xml-parser's builder in schema order, so each file passes the official schema
 * (`../shared/tools/iso20022/validate.sh`). Independent of the product's reader.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLBuilder } from 'fast-xml-parser';

export interface TestEntry {
  amount: string;
  cd: 'CRDT' | 'DBIT';
  date: string;
  ref?: string;
  e2e?: string;
  ustrd?: string;
  strdRef?: string;
  name?: string;
  iban?: string;
  reversal?: boolean;
  /** `Domn/Fmly/SubFmly`, default a SEPA credit transfer received or issued. */
  code?: [string, string, string];
  ccy?: string;
}

export interface TestStatement {
  version: '02' | '08';
  id: string;
  seq?: string;
  iban: string;
  from: string;
  to: string;
  opening: string;
  closing: string;
  entries: TestEntry[];
  ccy?: string;
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  suppressEmptyNode: true,
});

const amt = (v: string, ccy = 'EUR') => ({ '@_Ccy': ccy, '#text': v.replace(/^-/, '') });
const cdOf = (v: string) => (v.startsWith('-') ? 'DBIT' : 'CRDT');

/** The statement's XML text. */
export function camt053(s: TestStatement): string {
  const v8 = s.version === '08';
  const party = (name: string) => (v8 ? { Pty: { Nm: name } } : { Nm: name });
  const bal = (code: string, v: string, date: string) => ({
    Tp: { CdOrPrtry: { Cd: code } },
    Amt: amt(v, s.ccy),
    CdtDbtInd: cdOf(v),
    Dt: { Dt: date },
  });
  const entry = (e: TestEntry) => {
    const credit = e.cd === 'CRDT';
    const [d, f, sf] = e.code ?? ['PMNT', credit ? 'RCDT' : 'ICDT', 'ESCT'];
    const rltd =
      e.name || e.iban
        ? credit
          ? { Dbtr: party(e.name ?? 'Neznámy'), DbtrAcct: e.iban ? { Id: { IBAN: e.iban } } : undefined }
          : { Cdtr: party(e.name ?? 'Neznámy'), CdtrAcct: e.iban ? { Id: { IBAN: e.iban } } : undefined }
        : undefined;
    const rmt =
      e.ustrd || e.strdRef
        ? { Ustrd: e.ustrd, Strd: e.strdRef ? { CdtrRefInf: { Ref: e.strdRef } } : undefined }
        : undefined;
    return {
      Amt: amt(e.amount, e.ccy ?? s.ccy),
      CdtDbtInd: e.cd,
      RvslInd: e.reversal ? 'true' : undefined,
      Sts: v8 ? { Cd: 'BOOK' } : 'BOOK',
      BookgDt: { Dt: e.date },
      ValDt: { Dt: e.date },
      AcctSvcrRef: e.ref,
      BkTxCd: { Domn: { Cd: d, Fmly: { Cd: f, SubFmlyCd: sf } } },
      NtryDtls: {
        TxDtls: {
          Refs: e.e2e ? { EndToEndId: e.e2e } : undefined,
          RltdPties: rltd,
          RmtInf: rmt,
        },
      },
    };
  };
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    Document: {
      '@_xmlns': `urn:iso:std:iso:20022:tech:xsd:camt.053.001.${s.version}`,
      BkToCstmrStmt: {
        GrpHdr: { MsgId: `MSG-${s.id}`, CreDtTm: `${s.to}T18:00:00` },
        Stmt: {
          Id: s.id,
          ElctrncSeqNb: s.seq,
          LglSeqNb: s.seq,
          CreDtTm: `${s.to}T18:00:00`,
          FrToDt: { FrDtTm: `${s.from}T00:00:00`, ToDtTm: `${s.to}T23:59:59` },
          Acct: { Id: { IBAN: s.iban }, Ccy: s.ccy ?? 'EUR' },
          Bal: [bal('OPBD', s.opening, s.from), bal('CLBD', s.closing, s.to)],
          Ntry: s.entries.map(entry),
        },
      },
    },
  }) as string;
}

/** Keeps `text` as `name` in `ISO20022_DUMP_DIR` (when set) for the official schema check in `.ci/run`. */
export function dumpIso(name: string, text: string): void {
  const dir = process.env.ISO20022_DUMP_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
}
