/**
 * The XML the Financial Administration takes (issue #37): the control statement as `KVDPH_2025` in namespace
 * `https://ekr.financnasprava.sk/Formulare/XSD/kv_dph_2025.xsd` (Identifikacia, Transakcie with A1 … D2
 * elements whose attributes carry the figures), and the VAT return as the `dokument` of form DPH 2025
 * (hlavicka, telo with rows r01 …). Built with fast-xml-parser's builder, as the e-invoices are; never by
 * concatenation. Pure. Element and attribute names: docs/decisions.md "VAT filings"; issue #44: the
 * VAT return's `hlavicka` and `telo` exactly as `dph2025.xsd` (DPHv25) defines them, a supplementary
 * control statement's lines with their correction codes (`KOpr`), the street apart from its number.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { DSummary, StatementLine } from './control-statement.js';
import type { FilingPeriod } from './period.js';
import type { CorrectionCode, FilingBody } from './supplementary.js';

export const KVDPH_NS = 'https://ekr.financnasprava.sk/Formulare/XSD/kv_dph_2025.xsd';

/** The filer as the forms name it (issue #44: checked by `filerOf` before anything is built). */
export interface Filer {
  vatNumber: string;
  taxNumber: string | null;
  name: string;
  country: string;
  city: string;
  postalCode: string | null;
  /** The street without its number, and the number (`Ulica`/`ulica`, `Cislo`/`cislo`). */
  street: string | null;
  streetNumber: string | null;
  phone: string | null;
  email: string | null;
  /** `danovyUrad` of the VAT return. */
  taxOffice: string | null;
  /** `opravnenaOsoba` of the VAT return. */
  authorizedPerson: { name: string; phone: string | null; email: string | null } | null;
}

/** The filer's address as the VAT return's and the recapitulative statement's `adresa` begin it. */
export function addressOf(filer: Filer) {
  const { street, number } = streetParts(filer.street, filer.streetNumber);
  return {
    ulica: street ?? '',
    cislo: number ?? '',
    psc: filer.postalCode?.replace(/\s/g, '') ?? '',
    obec: filer.city,
  };
}

/**
 * The street and its number apart: `number` when given, else the trailing number of `street`
 * (`Hlavná 12` → `Hlavná`, `12`; `Nám. SNP 3/A` → `Nám. SNP`, `3/A`); a street without one stays whole.
 */
export function streetParts(
  street: string | null,
  number: string | null,
): { street: string | null; number: string | null } {
  if (number || !street) return { street, number };
  const m = /^(.*\S)[\s,]+(\d+[0-9A-Za-z]*(?:[/-]\d*[0-9A-Za-z]*)?)$/.exec(street.trim());
  return m ? { street: m[1], number: m[2] } : { street, number: null };
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
  format: true,
});
const declared = (tree: object) => `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(tree)}`;
type Attrs = Record<string, string | null | undefined>;
const attrs = (a: Attrs) =>
  Object.fromEntries(
    Object.entries(a)
      .filter(([, v]) => v != null && v !== '')
      .map(([k, v]) => [`@_${k}`, v]),
  );

const line = (
  l: StatementLine & { correction?: CorrectionCode },
  partner: 'Odb' | 'Dod',
  correction = false,
): Attrs => ({
  [partner]: l.partnerVatNumber,
  [correction ? 'FO' : 'F']: l.documentNumber,
  FP: l.originalNumber,
  Den: l.taxPoint,
  [correction ? 'ZR' : 'Z']: l.base,
  [correction ? 'DR' : 'D']: l.vat,
  S: l.rate,
  TK: l.commodityCode,
  TD: l.goodsKind,
  Mn: l.quantity,
  MJ: l.unit,
  [correction ? 'OR' : 'O']: l.deducted,
  KOpr: l.correction,
});
const d = (s: DSummary & { correction?: CorrectionCode }): Attrs => ({
  SumaObratov: s.turnover,
  Z: s.base,
  D: s.vat,
  ZZn: s.baseReduced,
  DZn: s.vatReduced,
  KOpr: s.correction,
});

/**
 * The control statement of `period` filed as `kind` (R, O or D) by `filer`, as KVDPH_2025 XML (UTF-8):
 * `body` is the whole statement (R, O) or the supplementary one with its correction codes (D).
 */
export function controlStatementXml(
  body: FilingBody,
  period: FilingPeriod,
  kind: string,
  filer: Filer,
): string {
  const t: Record<string, object[]> = {
    A1: body.A1.map((l) => attrs(line(l, 'Odb'))),
    A2: body.A2.map((l) => attrs(line(l, 'Odb'))),
    B1: body.B1.map((l) => attrs(line(l, 'Dod'))),
    B2: body.B2.map((l) => attrs(line(l, 'Dod'))),
    B31: body.B31.map((l) => attrs({ Z: l.base, D: l.vat, O: l.deducted, KOpr: l.correction })),
    B32: body.B32.map((l) =>
      attrs({ Dod: l.partnerVatNumber, Z: l.base, D: l.vat, O: l.deducted, KOpr: (l as any).correction }),
    ),
    C1: body.C1.map((l) => attrs(line(l, 'Odb', true))),
    C2: body.C2.map((l) => attrs(line(l, 'Dod', true))),
    D1: body.D1.map((s) => attrs(d(s))),
    D2: body.D2.map((s) => attrs(d(s))),
  };
  const transakcie = Object.fromEntries(Object.entries(t).filter(([, v]) => v.length));
  const address = streetParts(filer.street, filer.streetNumber);
  return declared({
    KVDPH_2025: {
      '@_xmlns': KVDPH_NS,
      Identifikacia: {
        IcDphPlatitela: filer.vatNumber,
        Druh: kind,
        Obdobie: {
          Rok: String(period.year),
          ...(period.month ? { Mesiac: String(period.month) } : { Stvrtrok: String(period.quarter) }),
        },
        Nazov: filer.name,
        Stat: filer.country === 'SK' ? 'Slovenská republika' : filer.country,
        Obec: filer.city,
        PSC: filer.postalCode?.replace(/\s/g, '') ?? '',
        Ulica: address.street ?? '',
        Cislo: address.number ?? '',
        Tel: filer.phone ?? '',
        Email: filer.email ?? '',
      },
      Transakcie: transakcie,
    },
  });
}

/** `D.M.YYYY` as the VAT return's header dates take it. */
const formDate = (isoDate: string) => {
  const [y, m, day] = isoDate.split('-');
  return `${Number(day)}.${Number(m)}.${y}`;
};

/**
 * The VAT return (DPHv25, `dph2025.xsd`): `hlavicka` with the tax office, the filer, its address with the
 * house number apart, the person authorised to file and the declaration date; `telo` with every row of
 * `order` (EUR, 2 decimals; rows without an amount empty) and `splneniePodmienok` between r32 and r33.
 * `declaredOn` (`YYYY-MM-DD`) is also the day the reason for a supplementary return was found.
 */
export function vatReturnXml(
  rows: Record<string, string>,
  order: readonly string[],
  period: FilingPeriod,
  kind: string,
  filer: Filer,
  declaredOn: string,
): string {
  const telo: Record<string, string> = {};
  for (const k of order) {
    telo[k] = rows[k] ?? '';
    if (k === 'r32') telo.splneniePodmienok = '0';
  }
  return declared({
    dokument: {
      hlavicka: {
        identifikacneCislo: { kodStatu: filer.vatNumber.slice(0, 2), cislo: filer.vatNumber.slice(2) },
        dic: filer.taxNumber ?? '',
        danovyUrad: filer.taxOffice ?? '',
        nevzniklaPov: '0',
        typDP: {
          rdp: kind === 'R' ? '1' : '0',
          odp: kind === 'O' ? '1' : '0',
          ddp: kind === 'D' ? '1' : '0',
          datumZisteniaDdp: kind === 'D' ? formDate(declaredOn) : '',
        },
        osoba: {
          platitel: '1',
          registrovana: '0',
          inaPovinna: '0',
          zdanitelna: '0',
          zastupca: '0',
          zastupca69aa: '0',
        },
        zdanObd: {
          mesiac: period.month ? String(period.month).padStart(2, '0') : '',
          stvrtrok: period.quarter ? String(period.quarter) : '',
          rok: String(period.year),
        },
        meno: { riadok: filer.name },
        adresa: { ...addressOf(filer), telefon: filer.phone ?? '', email: filer.email ?? '' },
        opravnenaOsoba: {
          menoPriezvisko: filer.authorizedPerson?.name ?? '',
          telefon: filer.authorizedPerson?.phone ?? '',
          email: filer.authorizedPerson?.email ?? '',
        },
        datumVyhlasenia: formDate(declaredOn),
      },
      telo,
    },
  });
}
