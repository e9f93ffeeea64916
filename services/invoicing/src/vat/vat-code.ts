/** A company's VAT code and its paragraphs as the pure VAT rules read them (DESIGN §6 "VAT code"). */
import type { VatKind } from '@bm/contracts';

/** A legal paragraph a code may name on an invoice (exemption reason, reverse charge). */
export interface VatParagraph {
  id: string;
  code: string;
  isDefault: boolean;
}

/** A VAT code: `type` O (output) or I (input), its country, rate (percent), validity and kind. */
export interface VatCodeDef {
  id: string;
  code: string;
  type: 'O' | 'I';
  country: string;
  rate: string;
  validFrom: string;
  validTo: string | null;
  kind: VatKind;
  paragraphs: VatParagraph[];
}
