/**
 * Invoicing master-data endpoints (DESIGN §4, §6): partners, VAT codes with paragraphs (periods in
 * `period.handlers.ts`), bank accounts, the simple code lists and the invoice ordners (SalesInvoice,
 * PurchaseInvoice). Transport only: decode, check references, store.
 */

import {
  bankAccounts,
  costCenters,
  costUnits,
  defaultNumberFormat,
  deliveryTypes,
  invoicingOrdners,
  partners,
  paymentTypes,
  persons,
  projects,
  reports,
  type VatCode,
  vatCodes,
} from '@bm/contracts';
import { AppError, ErrorCode, referenceNotFound, validationFailed } from '@bm/errors';
import { request } from '@bm/messaging';
import { type Ctx, defaultOrdnerRule, pick, registerCrud, type ServiceKit } from '@bm/service-kit';
import { composeAddress } from '../references/index.js';
import {
  BankAccountEntity,
  CodeListEntity,
  OrdnerEntity,
  PartnerEntity,
  VatCodeEntity,
  VatParagraphEntity,
} from '../schema/entities.js';
import { normalizeVatNumber } from '../vat/index.js';

type VatCodeRow = InstanceType<typeof VatCodeEntity.class>;

/** VAT codes with their paragraphs, loaded in one query per page. */
async function vatCodeDtos(rows: VatCodeRow[], ctx: Ctx): Promise<VatCode[]> {
  const paras = rows.length
    ? await ctx.em.find(
        VatParagraphEntity,
        { vatCodeId: { $in: rows.map((r) => r.id) } },
        { orderBy: { code: 'asc' } },
      )
    : [];
  return rows.map((r) => ({
    ...pick(r, ['id', 'code', 'name', 'country', 'rate', 'validFrom', 'validTo']),
    type: r.type as VatCode['type'],
    kind: r.kind as VatCode['kind'],
    reverseChargeLetter: r.reverseChargeLetter ?? null,
    paragraphs: paras
      .filter((p) => p.vatCodeId === r.id)
      .map((p) => pick(p, ['id', 'code', 'text', 'isDefault'])),
  }));
}

/** Replaces a VAT code's paragraphs by `wanted`, keeping the ids of paragraphs whose code stays. */
async function syncParagraphs(
  ctx: Ctx,
  vatCodeId: string,
  wanted: { code: string; text: string; isDefault: boolean }[],
) {
  const seen = new Set<string>();
  for (const w of wanted) {
    if (seen.has(w.code))
      throw validationFailed([{ path: 'paragraphs', message: `paragraph code ${w.code} is used twice` }]);
    seen.add(w.code);
  }
  const existing = await ctx.em.find(VatParagraphEntity, { vatCodeId });
  for (const e of existing) if (!seen.has(e.code)) ctx.em.remove(e);
  for (const w of wanted) {
    const e = existing.find((x) => x.code === w.code);
    if (e) ctx.em.assign(e, w);
    else
      ctx.em.create(VatParagraphEntity, {
        id: crypto.randomUUID(),
        companyId: ctx.companyId!,
        vatCodeId,
        ...w,
      });
  }
}

/** Registers the master-data endpoints of the invoicing service. */
export function registerMasterData(kit: ServiceKit): void {
  registerCrud(kit, partners, {
    entity: PartnerEntity,
    label: 'Partner',
    // vatNumber becomes an invoice's partnerNumber3: the same check and normal form (DESIGN §6).
    assign: (input: any) => {
      const vat = normalizeVatNumber(input.vatNumber, input.country);
      if (!vat.ok) throw validationFailed([{ path: 'vatNumber', message: vat.message }]);
      return {
        address: null,
        deliveryAddress: null,
        country: null,
        companyNumber: null,
        street: null,
        city: null,
        postalCode: null,
        taxNumber: null,
        email: null,
        peppolId: null,
        ...input,
        // Issue #45: the partner's IBANs (electronic format, each once).
        iban: [...new Set<string>(input.iban ?? [])],
        // Issue #21: the structured address given without `address` composes it.
        ...(input.address ? {} : { address: composeAddress(input.street, input.postalCode, input.city) }),
        vatNumber: vat.value,
      };
    },
    toDtos: (rows) =>
      rows.map((r) =>
        pick(r, [
          'id',
          'code',
          'name',
          'address',
          'deliveryAddress',
          'country',
          'companyNumber',
          'vatNumber',
          'dueDays',
          'street',
          'city',
          'postalCode',
          'taxNumber',
          'email',
          'peppolId',
          'iban',
        ]),
      ),
  });

  registerCrud(kit, vatCodes, {
    entity: VatCodeEntity,
    label: 'VAT code',
    assign: ({ paragraphs: _p, ...input }: any) => ({
      name: null,
      validTo: null,
      reverseChargeLetter: null,
      ...input,
    }),
    // The paragraphs travel with the code and are stored in the same transaction.
    afterStore: (e, input: any, ctx) => syncParagraphs(ctx, e.id, input.paragraphs ?? []),
    toDtos: vatCodeDtos,
  });

  registerCrud(kit, bankAccounts, {
    entity: BankAccountEntity,
    label: 'Bank account',
    assign: (input: any) => ({ bic: null, ...input }),
    beforeStore: async (data, ctx, existing) => {
      // One default account per company: a new default takes the flag from the old one.
      if (data.isDefault) {
        await ctx.em.nativeUpdate(
          BankAccountEntity,
          { isDefault: true, ...(existing ? { id: { $ne: existing.id } } : {}) },
          { isDefault: false },
        );
      }
    },
    toDtos: (rows) =>
      rows.map((r) =>
        pick(r, [
          'id',
          'code',
          'name',
          'iban',
          'bic',
          'currency',
          'isDefault',
          'accountCode',
          'feeAccount',
          'interestAccount',
        ]),
      ),
  });

  const codeLists = { paymentTypes, deliveryTypes, costCenters, costUnits, persons, projects };
  for (const [list, crud] of Object.entries(codeLists)) {
    registerCrud(kit, crud, {
      entity: CodeListEntity,
      label: list,
      scope: { list },
      assign: (input: any) => input,
      toDtos: (rows) => rows.map((r) => pick(r, ['id', 'code', 'name'])),
    });
  }

  const defaultOrdner = defaultOrdnerRule(OrdnerEntity);
  registerCrud(kit, invoicingOrdners, {
    entity: OrdnerEntity,
    label: 'Ordner',
    assign: async (input: any, ctx, existing) => {
      if (input.documentType !== 'SalesInvoice' && input.documentType !== 'PurchaseInvoice') {
        throw validationFailed([
          { path: 'documentType', message: 'invoicing ordners hold SalesInvoice or PurchaseInvoice' },
        ]);
      }
      if (input.reportId) {
        await request(kit.nc, reports.get, { id: input.reportId }, ctx).catch((e) => {
          if (e instanceof AppError && e.code === ErrorCode.NotFound)
            throw referenceNotFound('reportId', 'report');
          throw e;
        });
      }
      return {
        ...input,
        reportId: input.reportId ?? null,
        numberFormat: input.numberFormat || defaultNumberFormat(input.code),
        isDefault: await defaultOrdner.isDefault(ctx.em, input.documentType, input.isDefault, existing),
      };
    },
    beforeStore: (data, ctx, existing) => defaultOrdner.beforeStore(ctx.em, data as any, existing),
    toDtos: (rows) =>
      rows.map(
        (o) =>
          pick(o, ['id', 'code', 'name', 'documentType', 'numberFormat', 'reportId', 'isDefault']) as any,
      ),
  });
}
