/**
 * The Slovak payment symbols (variable, specific, constant) of a bank entry (issue #45; DESIGN §6d). Pure.
 *
 * Where banks put them (Slovak Banking Association, SEPA convention for the symbols): in `EndToEndId` as
 * `/VS<vs>/SS<ss>/KS<ks>` (any of the three may be empty or missing); some banks repeat them in the
 * remittance text (`Ustrd`: `VS1234567890`, `/VS/1234567890`, `VS: 1234567890`), or put them in the
 * structured reference (`Strd/CdtrRefInf/Ref`) either in the same `/VS…` form or as an ISO 11649 RF
 * creditor reference whose reference part is the variable symbol (`RF18 …1234567890`). Read in that
 * order: `EndToEndId`, then the structured reference, then the text; the first place that names a
 * symbol gives it. A variable symbol is up to 10 digits, specific up to 10, constant up to 4.
 */

/** The symbols found (digits only, as written; null when absent). */
export interface PaymentSymbols {
  symbolVariable: string | null;
  symbolSpecific: string | null;
  symbolConstant: string | null;
}

const LIMITS = { VS: 10, SS: 10, KS: 4 } as const;
type Sym = keyof typeof LIMITS;

/** `/VS123/SS/KS0308` (the SBA's EndToEndId form): each symbol's digits, or undefined when not named. */
function slashForm(text: string): Partial<Record<Sym, string>> {
  const out: Partial<Record<Sym, string>> = {};
  if (!/^\s*\/(VS|SS|KS)/i.test(text)) return out;
  for (const part of text.trim().split('/')) {
    const m = /^(VS|SS|KS)\s*(\d*)$/i.exec(part.trim());
    if (!m) continue;
    const sym = m[1]!.toUpperCase() as Sym;
    if (m[2] && m[2].length <= LIMITS[sym] && out[sym] === undefined) out[sym] = m[2];
  }
  return out;
}

/** A symbol written anywhere in free text: `VS1234`, `VS 1234`, `VS: 1234`, `/VS/1234`, `VS-1234`. */
function inText(text: string, sym: Sym): string | undefined {
  const re = new RegExp(`(?:^|[^A-Z0-9])${sym}[\\s:/#.-]*(\\d{1,${LIMITS[sym]}})(?!\\d)`, 'i');
  return re.exec(text)?.[1];
}

/** The reference part of an ISO 11649 creditor reference (`RFkk` + up to 21 characters), spaces removed. */
export function rfReference(ref: string): string | null {
  const compact = ref.replace(/\s+/g, '').toUpperCase();
  const m = /^RF\d{2}([0-9A-Z]{1,21})$/.exec(compact);
  return m ? m[1]! : null;
}

/**
 * The symbols of one transaction from where banks put them: `endToEndId`, the structured creditor
 * reference `ref`, the unstructured remittance texts `texts`. `NOTPROVIDED` (the SEPA placeholder) is no
 * symbol.
 */
export function readSymbols(
  endToEndId: string | null,
  ref: string | null,
  texts: readonly string[],
): PaymentSymbols {
  const found: Partial<Record<Sym, string>> = {};
  const take = (from: Partial<Record<Sym, string>>) => {
    for (const s of ['VS', 'SS', 'KS'] as const)
      if (found[s] === undefined && from[s] !== undefined) found[s] = from[s];
  };
  if (endToEndId && endToEndId !== 'NOTPROVIDED') take(slashForm(endToEndId));
  if (ref) {
    take(slashForm(ref));
    const rf = rfReference(ref);
    if (rf && /^\d+$/.test(rf)) {
      const digits = rf.replace(/^0+(?=\d)/, '');
      if (digits.length <= LIMITS.VS) take({ VS: digits });
    }
  }
  for (const t of texts) {
    take(slashForm(t));
    take({ VS: inText(t, 'VS'), SS: inText(t, 'SS'), KS: inText(t, 'KS') });
  }
  return {
    symbolVariable: found.VS ?? null,
    symbolSpecific: found.SS ?? null,
    symbolConstant: found.KS ?? null,
  };
}

/** A variable symbol as compared: digits without leading zeros (`0000001234` pays `1234`). */
export const vsKey = (vs: string | null | undefined): string | null => {
  if (!vs) return null;
  const d = vs.replace(/\D/g, '').replace(/^0+/, '');
  return d || null;
};

/** `EndToEndId` of an outgoing payment in the SBA form, `/VS…/SS…/KS…` (max 35 characters), or `NOTPROVIDED`. */
export function endToEndIdOf(s: PaymentSymbols): string {
  if (!s.symbolVariable && !s.symbolSpecific && !s.symbolConstant) return 'NOTPROVIDED';
  return `/VS${s.symbolVariable ?? ''}/SS${s.symbolSpecific ?? ''}/KS${s.symbolConstant ?? ''}`;
}
