/** Partner reads and writes of the received-document booking (issue #21). */
import type { EntityManager } from '@bm/service-kit';
import type { SupplierPartnerData } from '../e-invoice-format/index.js';
import { PartnerEntity } from '../schema/entities.js';

/** The partner with this (normalised) VAT number, else with this IČO; null when neither matches. */
export async function findPartnerId(
  em: EntityManager,
  by: { vatNumber: string | null; companyNumber: string | null },
): Promise<string | null> {
  const byVat = by.vatNumber
    ? await em.findOne(PartnerEntity, { vatNumber: by.vatNumber }, { fields: ['id'] })
    : null;
  if (byVat) return byVat.id;
  const byIco = by.companyNumber
    ? await em.findOne(PartnerEntity, { companyNumber: by.companyNumber }, { fields: ['id'] })
    : null;
  return byIco?.id ?? null;
}

/** Creates the partner `data.code` in its own transaction, or returns the one that has that code already. */
export function createPartnerOnce(
  em: EntityManager,
  companyId: string,
  data: SupplierPartnerData,
): Promise<string> {
  return em.transactional(async (tx) => {
    const existing = await tx.findOne(PartnerEntity, { code: data.code }, { fields: ['id'] });
    if (existing) return existing.id;
    return tx.create(PartnerEntity, {
      id: crypto.randomUUID(),
      companyId,
      deliveryAddress: null,
      dueDays: 14,
      ...data,
    }).id;
  });
}
