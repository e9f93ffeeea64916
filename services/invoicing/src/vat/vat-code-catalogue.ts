/**
 * The VAT codes a new company starts with (DESIGN §6), derived from the EU rate table. Pure: no ORM.
 *
 * For the home country: one output (`O`) and one input (`I`) code per rate and uninterrupted run of
 * validity (`SK23` from 2025-01-01, `SK20` until 2024-12-31, ...; an older run of a rate that came back
 * later gets the suffix of its last year, e.g. `SK19-2010`), the zero-rated output codes
 * intra-community supply (`SK0-IC`), export (`SK0-EX`) and exempt (`SK0-OS`), and for every other
 * member state its OSS codes (`OSS-CZ21`, ...). Input codes carry the prefix `I-`.
 */
import type { VatKind } from '@bm/contracts';
import { EU_MEMBER_STATES, EU_VAT_RATES } from './eu-vat-rates.js';

/** The kind of a VAT code (DESIGN §6), as the contracts define it. */
export type { VatKind } from '@bm/contracts';

export interface VatParagraphSeed {
  code: string;
  text: string;
  isDefault: boolean;
}

export interface VatCodeSeed {
  code: string;
  name: string;
  type: 'O' | 'I';
  country: string;
  rate: string;
  validFrom: string;
  validTo: string | null;
  kind: VatKind;
  reverseChargeLetter?: string | null;
  paragraphs: VatParagraphSeed[];
}

/**
 * The self-assessed input codes of each deductible rate (issue #37): the buyer computes the VAT at the rate,
 * owes it and deducts it in the same period. Suffix, kind, and the rule of Act 222/2004.
 */
export const SELF_ASSESSED: readonly [string, VatKind, string][] = [
  ['RC', 'domesticReverseCharge', 'domestic reverse charge §69(12), self-assessed'],
  ['IC', 'intraCommunityAcquisition', 'intra-community acquisition §11, self-assessed'],
  ['SV', 'foreignServices', 'services from abroad §69(3), self-assessed'],
  ['IN', 'installation', 'goods installed by a foreign supplier §69(2), self-assessed'],
];

/** The letters of §69(12) of Act 222/2004 (domestic reverse charge) a Slovak company gets an output code for. */
export const REVERSE_CHARGE_LETTERS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'] as const;

/** Start date used for rates in force "since before the data begins". */
export const OPEN_START = '1970-01-01';

export interface RateRun {
  rate: string;
  kind: 'standard' | 'reduced';
  from: string;
  to: string | null;
}

const dayBefore = (d: string) =>
  new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** Uninterrupted validity runs of each rate of a country, newest last. */
export function rateRuns(country: string): RateRun[] {
  const periods = EU_VAT_RATES[country] ?? [];
  const runs: RateRun[] = [];
  const open = new Map<string, RateRun>();
  for (const p of periods) {
    const from = p.from ?? OPEN_START;
    const rates: [string, 'standard' | 'reduced'][] = [
      [p.standard, 'standard'],
      ...p.reduced.map((r) => [r, 'reduced'] as [string, 'reduced']),
    ];
    const seen = new Set<string>();
    for (const [rate, kind] of rates) {
      seen.add(rate);
      const run = open.get(rate);
      if (run && run.to === dayBefore(from)) {
        run.to = p.to;
        if (kind === 'standard') run.kind = 'standard';
      } else {
        const r: RateRun = { rate, kind, from, to: p.to };
        runs.push(r);
        open.set(rate, r);
      }
    }
  }
  return runs;
}

const SK = {
  rate: 'Sadzba dane podľa § 27 zákona č. 222/2004 Z. z. o dani z pridanej hodnoty',
  ic: 'Dodanie tovaru do iného členského štátu oslobodené od dane podľa § 43 zákona č. 222/2004 Z. z.',
  icService:
    'Prenesenie daňovej povinnosti na príjemcu služby podľa § 15 ods. 1 zákona č. 222/2004 Z. z. (čl. 196 smernice 2006/112/ES)',
  icTriangular:
    'Trojstranný obchod podľa § 45 zákona č. 222/2004 Z. z.; daň platí posledný odberateľ (čl. 141 a 197 smernice 2006/112/ES)',
  export: 'Vývoz tovaru oslobodený od dane podľa § 47 zákona č. 222/2004 Z. z.',
  exempt: 'Oslobodené od dane podľa § 28 až § 42 zákona č. 222/2004 Z. z.',
  oss: 'Osobitná úprava – jednotné kontaktné miesto (OSS), čl. 369a až 369k smernice 2006/112/ES',
};
const EU = {
  rate: 'VAT rate under Articles 96 to 99 of Directive 2006/112/EC',
  ic: 'Exempt intra-Community supply of goods, Article 138 of Directive 2006/112/EC',
  icService: 'Reverse charge: VAT to be accounted for by the recipient, Article 196 of Directive 2006/112/EC',
  icTriangular:
    'Triangulation: simplified triangular transaction, VAT due by the recipient, Articles 141 and 197 of Directive 2006/112/EC',
  export: 'Exempt export of goods, Article 146 of Directive 2006/112/EC',
  exempt: 'Exempt supply, Articles 132 to 135 of Directive 2006/112/EC',
  oss: 'Special scheme One Stop Shop (OSS), Articles 369a to 369k of Directive 2006/112/EC',
};

/** Codes of a run: the newest run of a rate gets the plain code, an older one `-<last year>`. */
function runCodes(prefix: string, runs: RateRun[]): { run: RateRun; code: string }[] {
  const newest = new Map<string, RateRun>();
  for (const r of runs) newest.set(r.rate, r);
  return runs.map((run) => ({
    run,
    code:
      newest.get(run.rate) === run ? `${prefix}${run.rate}` : `${prefix}${run.rate}-${run.to!.slice(0, 4)}`,
  }));
}

/** The VAT codes of a company registered in `home` (ISO alpha-2). Unknown countries get none. */
export function vatCodeCatalogue(home: string): VatCodeSeed[] {
  const t = home === 'SK' ? SK : EU;
  const para = (code: string, text: string, isDefault = true): VatParagraphSeed => ({
    code,
    text,
    isDefault,
  });
  const out: VatCodeSeed[] = [];
  const runs = runCodes(home, rateRuns(home));
  for (const { run, code } of runs) {
    const base = { country: home, rate: run.rate, validFrom: run.from, validTo: run.to, kind: run.kind };
    out.push({
      ...base,
      code,
      type: 'O',
      name: `${home} ${run.rate} % (${run.kind})`,
      paragraphs: [para('RATE', t.rate)],
    });
    out.push({
      ...base,
      code: `I-${code}`,
      type: 'I',
      name: `${home} ${run.rate} % input`,
      paragraphs: [para('RATE', t.rate)],
    });
    for (const [suffix, kind, name] of SELF_ASSESSED)
      out.push({
        ...base,
        kind,
        code: `I-${code}-${suffix}`,
        type: 'I',
        name: `${home} ${run.rate} % ${name}`,
        paragraphs: [],
      });
  }
  if (!EU_VAT_RATES[home]) return out;
  const zero = { country: home, rate: '0', validFrom: OPEN_START, validTo: null, type: 'O' as const };
  out.push({
    ...zero,
    code: `${home}0-IC`,
    name: 'Intra-Community supply 0 %',
    kind: 'intraCommunity',
    // Issue #44: the middle party's supply in a triangular trade (§45), its own kind in the recapitulative statement.
    paragraphs: [
      para('IC-GOODS', t.ic),
      para('IC-SERVICES', t.icService, false),
      para('IC-TRIANGULAR', t.icTriangular, false),
    ],
  });
  out.push({
    ...zero,
    code: `${home}0-EX`,
    name: 'Export 0 %',
    kind: 'export',
    paragraphs: [para('EXPORT', t.export)],
  });
  out.push({
    ...zero,
    code: `${home}0-OS`,
    name: 'Exempt 0 %',
    kind: 'exempt',
    paragraphs: [para('EXEMPT', t.exempt)],
  });
  out.push({
    ...zero,
    type: 'I',
    code: `I-${home}0-OS`,
    name: 'Exempt input 0 %',
    kind: 'exempt',
    paragraphs: [para('EXEMPT', t.exempt)],
  });
  if (home === 'SK')
    for (const l of REVERSE_CHARGE_LETTERS)
      out.push({
        ...zero,
        code: `SK0-RC-${l}`,
        name: `Domestic reverse charge §69(12)(${l})`,
        kind: 'domesticReverseCharge',
        reverseChargeLetter: l,
        paragraphs: [
          para('RC', `Prenesenie daňovej povinnosti podľa § 69 ods. 12 písm. ${l}) zákona č. 222/2004 Z. z.`),
        ],
      });
  for (const other of EU_MEMBER_STATES) {
    if (other === home) continue;
    for (const { run, code } of runCodes(`OSS-${other}`, rateRuns(other))) {
      out.push({
        code,
        name: `OSS ${other} ${run.rate} %`,
        type: 'O',
        country: other,
        rate: run.rate,
        validFrom: run.from,
        validTo: run.to,
        kind: 'oss',
        paragraphs: [para('OSS', t.oss)],
      });
    }
  }
  return out;
}
