import { ErrorCode, unprocessable } from '@bm/errors';
import { cachedMasterData, type EntityManager } from '@bm/service-kit';
import { PurchaseInvoiceEntity, VatCodeEntity, VatParagraphEntity } from '../schema/entities.js';
import type { VatCodeDef } from './vat-selection.js';

/**
 * The VAT codes a selection may need: those of the countries in play, plus any named by id or code (from
 * the master-data cache: VAT codes change by a write of this service, which drops the cache).
 */
export async function loadVatCodes(
  em: EntityManager,
  countries: string[],
  ids: string[],
  codes: string[],
): Promise<VatCodeDef[]> {
  const key = [countries, ids, codes].map((l) => [...l].sort().join(',')).join('|');
  return cachedMasterData(em, `invoicing:vat-codes:${key}`, () => readVatCodes(em, countries, ids, codes));
}

async function readVatCodes(
  em: EntityManager,
  countries: string[],
  ids: string[],
  codes: string[],
): Promise<VatCodeDef[]> {
  const rows = await em.find(VatCodeEntity, {
    $or: [{ country: { $in: countries }, type: 'O' }, { id: { $in: ids } }, { code: { $in: codes } }],
  });
  const paragraphs = rows.length
    ? await em.find(VatParagraphEntity, { vatCodeId: { $in: rows.map((r) => r.id) } })
    : [];
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    type: r.type as 'O' | 'I',
    country: r.country,
    rate: r.rate,
    validFrom: r.validFrom,
    validTo: r.validTo ?? null,
    kind: r.kind as VatCodeDef['kind'],
    paragraphs: paragraphs
      .filter((p) => p.vatCodeId === r.id)
      .map((p) => ({ id: p.id, code: p.code, isDefault: p.isDefault })),
  }));
}

/** The company's input VAT codes (type I), from the master-data cache. */
export async function inputCodes(em: EntityManager): Promise<VatCodeDef[]> {
  return cachedMasterData(em, 'invoicing:vat-codes:input', async () =>
    (await em.find(VatCodeEntity, { type: 'I' })).map((r) => ({
      id: r.id,
      code: r.code,
      type: 'I' as const,
      country: r.country,
      rate: r.rate,
      validFrom: r.validFrom,
      validTo: r.validTo ?? null,
      kind: r.kind as VatCodeDef['kind'],
      paragraphs: [],
    })),
  );
}

/**
 * The invoice a credit note corrects (issue #37): `correctedInvoiceId` must be a purchase invoice of the
 * company. @throws 422 ReferenceNotFound
 */
export async function checkCorrected(em: EntityManager, id: string | null | undefined): Promise<void> {
  if (!id) return;
  if (!(await em.count(PurchaseInvoiceEntity, { id })))
    throw unprocessable(
      ErrorCode.ReferenceNotFound,
      'correctedInvoiceId is not a purchase invoice of this company',
      { errors: [{ path: 'correctedInvoiceId', message: 'no such purchase invoice' }] },
    );
}
