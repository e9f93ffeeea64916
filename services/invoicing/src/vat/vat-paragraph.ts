/** The VAT paragraph (legal reason text) of an invoice or row (DESIGN §6), pure. */
import { type VatCodeDef, VatRefusal } from './vat-selection.js';

/**
 * The paragraph of a code (DESIGN §6): the given one, which must belong to the code; else `inherited`
 * (the invoice's paragraph, for a row) when it belongs to the code; else the code's default; else none.
 */
export function selectParagraph(
  code: VatCodeDef,
  given: string | null | undefined,
  field: string,
  inherited?: string | null,
): string | null {
  if (given) {
    if (!code.paragraphs.some((p) => p.id === given)) {
      throw new VatRefusal(
        'VatParagraphNotValid',
        field,
        `the paragraph does not belong to VAT code ${code.code}`,
      );
    }
    return given;
  }
  if (inherited && code.paragraphs.some((p) => p.id === inherited)) return inherited;
  return code.paragraphs.find((p) => p.isDefault)?.id ?? null;
}
