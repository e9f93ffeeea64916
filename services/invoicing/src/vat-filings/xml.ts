/**
 * The XML the Financial Administration takes (issue #37): the control statement as `KVDPH_2025` in namespace
 * `https://ekr.financnasprava.sk/Formulare/XSD/kv_dph_2025.xsd` (Identifikacia, Transakcie with A1 … D2
 * elements whose attributes carry the figures), and the VAT return as the `dokument` of form DPH 2025
 * (hlavicka, telo with rows r01 …). Built with fast-xml-parser's builder, as the e-invoices are; never by
 * concatenation. Pure. Element and attribute names: docs/decisions.md "VAT filings".
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { ControlStatementBody, DSummary, StatementLine } from './control-statement.js';
import type { FilingPeriod } from './period.js';

export const KVDPH_NS = 'https://ekr.financnasprava.sk/Formulare/XSD/kv_dph_2025.xsd';

/** The filer as the forms name it. */
export interface Filer {
  vatNumber: string;
  taxNumber: string | null;
  name: string;
  country: string;
  city: string | null;
  postalCode: string | null;
  street: string | null;
  phone: string | null;
  email: string | null;
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

const line = (l: StatementLine, partner: 'Odb' | 'Dod', correction = false): Attrs => ({
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
});
const d = (s: DSummary): Attrs => ({
  SumaObratov: s.turnover,
  Z: s.base,
  D: s.vat,
  ZZn: s.baseReduced,
  DZn: s.vatReduced,
});

/** The control statement of `period` filed as `kind` (R, O or D) by `filer`, as KVDPH_2025 XML (UTF-8). */
export function controlStatementXml(
  body: ControlStatementBody,
  period: FilingPeriod,
  kind: string,
  filer: Filer,
): string {
  const t: Record<string, object[]> = {
    A1: body.A1.map((l) => attrs(line(l, 'Odb'))),
    A2: body.A2.map((l) => attrs(line(l, 'Odb'))),
    B1: body.B1.map((l) => attrs(line(l, 'Dod'))),
    B2: body.B2.map((l) => attrs(line(l, 'Dod'))),
    B31: body.B31 ? [attrs({ Z: body.B31.base, D: body.B31.vat, O: body.B31.deducted })] : [],
    B32: body.B32.map((l) => attrs({ Dod: l.partnerVatNumber, Z: l.base, D: l.vat, O: l.deducted })),
    C1: body.C1.map((l) => attrs(line(l, 'Odb', true))),
    C2: body.C2.map((l) => attrs(line(l, 'Dod', true))),
    D1: body.D1 ? [attrs(d(body.D1))] : [],
    D2: body.D2 ? [attrs(d(body.D2))] : [],
  };
  const transakcie = Object.fromEntries(Object.entries(t).filter(([, v]) => v.length));
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
        Obec: filer.city ?? '',
        PSC: filer.postalCode?.replace(/\s/g, '') ?? '',
        Ulica: filer.street ?? '',
        Tel: filer.phone ?? '',
        Email: filer.email ?? '',
      },
      Transakcie: transakcie,
    },
  });
}

/** The VAT return's rows (`r01` …, amounts with 2 decimals; absent rows empty) as a DPH 2025 `dokument`. */
export function vatReturnXml(
  rows: Record<string, string>,
  order: readonly string[],
  period: FilingPeriod,
  kind: string,
  filer: Filer,
  declaredOn: string,
): string {
  const [y, m, day] = declaredOn.split('-');
  return declared({
    dokument: {
      hlavicka: {
        identifikacneCislo: { kodStatu: filer.vatNumber.slice(0, 2), cislo: filer.vatNumber.slice(2) },
        dic: filer.taxNumber ?? '',
        typDP: {
          rdp: kind === 'R' ? '1' : '0',
          odp: kind === 'O' ? '1' : '0',
          ddp: kind === 'D' ? '1' : '0',
          datumZisteniaDdp: kind === 'D' ? `${Number(day)}.${Number(m)}.${y}` : '',
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
        adresa: {
          ulica: filer.street ?? '',
          psc: filer.postalCode?.replace(/\s/g, '') ?? '',
          obec: filer.city ?? '',
          telefon: filer.phone ?? '',
          email: filer.email ?? '',
        },
        datumVyhlasenia: `${Number(day)}.${Number(m)}.${y}`,
      },
      telo: { ...Object.fromEntries(order.map((k) => [k, rows[k] ?? ''])), splneniePodmienok: '0' },
    },
  });
}
