/**
 * `invoicing.company.provision` (DESIGN §3): seeds a new company's invoicing data: tax profile, the VAT
 * codes of its country from the EU rate table (with historic validity and paragraphs), periods for the
 * current and next year, the default SalesInvoice (`OF`) and PurchaseInvoice (`DF`) ordners, payment and
 * delivery types, and the bank account when an IBAN is given. Idempotent per company.
 */

import { defaultNumberFormat, provisionCompany } from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { electronicFormatIBAN } from 'ibantools';
import { assertPeppolIdFree } from '../e-invoice-archive/index.js';
import { composeAddress } from '../references/index.js';
import {
  BankAccountEntity,
  CodeListEntity,
  CompanyProfileEntity,
  OrdnerEntity,
  PeriodEntity,
  VatCodeEntity,
  VatParagraphEntity,
} from '../schema/entities.js';
import { vatCodeCatalogue } from '../vat/index.js';

export const DEFAULT_PAYMENT_TYPES: [string, string][] = [
  ['PP', 'Prevodný príkaz'],
  ['HOT', 'Hotovosť'],
  ['KAR', 'Platobná karta'],
  ['DOB', 'Dobierka'],
];
export const DEFAULT_DELIVERY_TYPES: [string, string][] = [
  ['OSOB', 'Osobný odber'],
  ['KUR', 'Kuriér'],
  ['POS', 'Pošta'],
];

export function registerProvision(kit: ServiceKit): void {
  serve<ReturnType<typeof provisionCompany>, { em: Ctx['em'] }>(
    kit.service,
    provisionCompany('invoicing'),
    async (profile, ctx) => {
      const em = ctx.em;
      const companyId = profile.companyId;
      em.setFilterParams('company', { companyId });
      if (await em.count(CompanyProfileEntity, {})) return { created: {} as Record<string, number> };
      await assertPeppolIdFree(em, profile.peppolId, companyId);
      const id = () => crypto.randomUUID();
      em.create(CompanyProfileEntity, {
        id: id(),
        companyId,
        name: profile.name,
        country: profile.country,
        vatNumber: profile.vatNumber ?? null,
        companyNumber: profile.companyNumber ?? null,
        address: profile.address ?? composeAddress(profile.street, profile.postalCode, profile.city),
        taxNumber: profile.taxNumber ?? null,
        street: profile.street ?? null,
        streetNumber: profile.streetNumber ?? null,
        taxOffice: profile.taxOffice ?? null,
        authorizedPersonName: profile.authorizedPersonName ?? null,
        authorizedPersonPhone: profile.authorizedPersonPhone ?? null,
        authorizedPersonEmail: profile.authorizedPersonEmail ?? null,
        city: profile.city ?? null,
        postalCode: profile.postalCode ?? null,
        registration: profile.registration ?? null,
        email: profile.email ?? null,
        phone: profile.phone ?? null,
        peppolId: profile.peppolId ?? null,
        ossRegistered: profile.ossRegistered,
        currency: profile.currency,
        vatPeriod: profile.vatPeriod,
        timeZone: profile.timeZone,
        defaultDueDays: 14,
      });
      const codes = vatCodeCatalogue(profile.country);
      for (const { paragraphs, ...c } of codes) {
        const vatCodeId = id();
        em.create(VatCodeEntity, { id: vatCodeId, companyId, ...c });
        for (const p of paragraphs) em.create(VatParagraphEntity, { id: id(), companyId, vatCodeId, ...p });
      }
      const year = Number(profile.today.slice(0, 4));
      for (const y of [year, year + 1]) {
        em.create(PeriodEntity, {
          id: id(),
          companyId,
          code: String(y),
          dateFrom: `${y}-01-01`,
          dateTo: `${y}-12-31`,
          closed: false,
        });
      }
      const ordners: [string, string, string][] = [
        ['OF', 'Odberateľské faktúry', 'SalesInvoice'],
        ['DF', 'Dodávateľské faktúry', 'PurchaseInvoice'],
      ];
      for (const [code, name, documentType] of ordners) {
        em.create(OrdnerEntity, {
          id: id(),
          companyId,
          code,
          name,
          documentType,
          numberFormat: defaultNumberFormat(code),
          reportId: profile.reportIds[documentType] ?? null,
          isDefault: true,
        });
      }
      for (const [code, name] of DEFAULT_PAYMENT_TYPES)
        em.create(CodeListEntity, { id: id(), companyId, list: 'paymentTypes', code, name });
      for (const [code, name] of DEFAULT_DELIVERY_TYPES)
        em.create(CodeListEntity, { id: id(), companyId, list: 'deliveryTypes', code, name });
      if (profile.iban) {
        em.create(BankAccountEntity, {
          id: id(),
          companyId,
          code: 'BU',
          name: 'Bežný účet',
          iban: electronicFormatIBAN(profile.iban) ?? profile.iban,
          bic: null,
          currency: profile.currency,
          isDefault: true,
        });
      }
      await em.flush();
      return { created: { vatCodes: codes.length, periods: 2, ordners: ordners.length } };
    },
    kit.serveOpts,
  );
}
