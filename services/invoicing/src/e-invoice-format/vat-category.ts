/**
 * EN 16931 VAT categories (BT-118, BT-151; UNCL5305) of this backend's VAT codes, and their exemption
 * reasons (BT-120, BT-121; VATEX) (issue #21; docs/decisions.md "VAT categories"). Pure.
 */
import type { VatCategory } from './model.js';
import type { VatCodeInfo } from './source.js';

/** VATEX codes and English reasons of the categories that need one (BR-AE-10, BR-IC-10, BR-G-10). */
const EXEMPTION: Partial<Record<VatCategory, { code: string; reason: string }>> = {
  AE: { code: 'VATEX-EU-AE', reason: 'Reverse charge' },
  K: { code: 'VATEX-EU-IC', reason: 'Intra-Community supply' },
  G: { code: 'VATEX-EU-G', reason: 'Export outside the EU' },
};

/**
 * The category of a row from its VAT code's kind: standard, reduced and OSS `S`, zero `Z`, exempt `E`,
 * export `G`, intra-community `K` (goods) or, with the paragraph IC-SERVICES, `AE` (reverse charge).
 */
export function categoryOf(info: VatCodeInfo | undefined, paragraphId: string | null): VatCategory {
  switch (info?.kind) {
    case 'zero':
      return 'Z';
    case 'exempt':
      return 'E';
    case 'export':
      return 'G';
    case 'domesticReverseCharge':
      return 'AE';
    case 'intraCommunity':
      return paragraphId && info.paragraphs[paragraphId]?.code === 'IC-SERVICES' ? 'AE' : 'K';
    default:
      return 'S';
  }
}

/**
 * The exemption reason of a category (BR-E-10 and the like): the VATEX code and text for AE, K and G;
 * for E the text of the VAT paragraph of its rows (`paragraphText`, else a generic one) without a code;
 * none for S and Z.
 */
export function exemptionOf(
  category: VatCategory,
  paragraphText: string | null,
): { code: string | null; reason: string | null } {
  const ex = EXEMPTION[category];
  if (ex) return { code: ex.code, reason: ex.reason };
  if (category === 'E') return { code: null, reason: paragraphText ?? 'Oslobodené od dane' };
  return { code: null, reason: null };
}
