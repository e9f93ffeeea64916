/**
 * `GET`/`PUT /1.6/company` (issue #21): the caller's own company profile, and `invoicing.company.get`,
 * the profile as printed on documents. Transport and the one rule of the record (jsvat on vatNumber).
 */

import {
  type Company,
  type CompanyTaxProfile,
  getCompany,
  getCompanyProfile,
  updateCompany,
} from '@bm/contracts';
import { ErrorCode, unprocessable, validationFailed } from '@bm/errors';
import { serve } from '@bm/messaging';
import { type Ctx, invalidateMasterData, type ServiceKit } from '@bm/service-kit';
import { assertPeppolIdFree } from '../e-invoice-archive/index.js';
import { endpointOf, formatEndpoint } from '../e-invoice-format/index.js';
import { composeAddress } from '../references/index.js';
import { CompanyProfileEntity } from '../schema/entities.js';
import { normalizeVatNumber } from '../vat/index.js';

type ProfileRow = InstanceType<typeof CompanyProfileEntity.class>;
type X = { em: Ctx['em'] };

export function companyDto(p: ProfileRow): Company {
  return {
    id: p.companyId,
    name: p.name,
    companyNumber: p.companyNumber ?? null,
    taxNumber: p.taxNumber ?? null,
    vatNumber: p.vatNumber ?? null,
    street: p.street ?? null,
    streetNumber: p.streetNumber ?? null,
    city: p.city ?? null,
    postalCode: p.postalCode ?? null,
    country: p.country,
    taxOffice: p.taxOffice ?? null,
    authorizedPersonName: p.authorizedPersonName ?? null,
    authorizedPersonPhone: p.authorizedPersonPhone ?? null,
    authorizedPersonEmail: p.authorizedPersonEmail ?? null,
    registration: p.registration ?? null,
    email: p.email ?? null,
    phone: p.phone ?? null,
    peppolId: p.peppolId ?? null,
    peppolEndpoint: formatEndpoint(endpointOf(p)),
    ossRegistered: p.ossRegistered,
    currency: p.currency,
    vatPeriod: p.vatPeriod === 'quarter' ? 'quarter' : 'month',
    timeZone: p.timeZone,
  };
}

async function profileOf(ctx: Ctx): Promise<ProfileRow> {
  const p = await ctx.em.findOne(CompanyProfileEntity, {});
  if (!p) throw unprocessable(ErrorCode.ReferenceNotFound, 'the company has no profile');
  return p;
}

export function registerCompany(kit: ServiceKit): void {
  serve<typeof getCompany, X>(
    kit.service,
    getCompany,
    async (_q, ctx) => companyDto(await profileOf(ctx)),
    kit.serveOpts,
  );
  serve<typeof updateCompany, X>(
    kit.service,
    updateCompany,
    async (input, ctx) => {
      const vat = normalizeVatNumber(input.vatNumber, input.country);
      if (!vat.ok) throw validationFailed([{ path: 'vatNumber', message: vat.message }]);
      const p = await profileOf(ctx);
      await assertPeppolIdFree(ctx.em, input.peppolId, ctx.companyId!);
      ctx.em.assign(p, {
        name: input.name,
        companyNumber: input.companyNumber ?? null,
        taxNumber: input.taxNumber ?? null,
        vatNumber: vat.value,
        street: input.street ?? null,
        streetNumber: input.streetNumber ?? null,
        taxOffice: input.taxOffice ?? null,
        authorizedPersonName: input.authorizedPersonName ?? null,
        authorizedPersonPhone: input.authorizedPersonPhone ?? null,
        authorizedPersonEmail: input.authorizedPersonEmail ?? null,
        city: input.city ?? null,
        postalCode: input.postalCode ?? null,
        country: input.country,
        address: composeAddress(input.street, input.postalCode, input.city) ?? p.address ?? null,
        registration: input.registration ?? null,
        email: input.email ?? null,
        phone: input.phone ?? null,
        peppolId: input.peppolId ?? null,
        ossRegistered: input.ossRegistered,
        currency: input.currency,
        vatPeriod: input.vatPeriod,
        timeZone: input.timeZone,
      });
      await ctx.em.flush();
      invalidateMasterData(ctx.companyId!);
      return companyDto(p);
    },
    kit.serveOpts,
  );
  serve<typeof getCompanyProfile, X>(
    kit.service,
    getCompanyProfile,
    async (_q, ctx): Promise<CompanyTaxProfile> => {
      const p = await profileOf(ctx);
      return {
        name: p.name,
        country: p.country,
        vatNumber: p.vatNumber ?? null,
        companyNumber: p.companyNumber ?? null,
        address: p.address ?? composeAddress(p.street, p.postalCode, p.city),
        currency: p.currency,
        ossRegistered: p.ossRegistered,
        taxNumber: p.taxNumber ?? null,
        registration: p.registration ?? null,
        email: p.email ?? null,
        phone: p.phone ?? null,
      };
    },
    kit.serveOpts,
  );
}
