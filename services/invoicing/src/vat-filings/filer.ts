/**
 * Who files, and which periods (issues #37, #44): the company profile as the forms' headers need it,
 * checked before anything is built or frozen, and the periods each form is filed for.
 */
import { ErrorCode, unprocessable, validationFailed } from '@bm/errors';
import type { Ctx } from '@bm/service-kit';
import { CompanyProfileEntity } from '../schema/entities.js';
import { type FilingPeriod, parseFilingPeriod } from './period.js';
import type { Filer } from './xml.js';

/** The forms: the control statement (KVDPH_2025), the VAT return (DPHv25), the recapitulative statement (SVDPHv20). */
export type Form = 'KVDPH' | 'DPH' | 'SV';

async function profile(ctx: Ctx) {
  const p = await ctx.em.findOne(CompanyProfileEntity, {});
  if (!p) throw unprocessable(ErrorCode.ReferenceNotFound, 'the company has no profile');
  return p;
}

/** The period of `code` for this company. @throws 400 ValidationFailed naming `period` */
export async function periodOf(ctx: Ctx, code: string): Promise<FilingPeriod> {
  const p = await profile(ctx);
  const parsed = parseFilingPeriod(code, p.vatPeriod === 'quarter' ? 'quarter' : 'month');
  if (typeof parsed === 'string') throw validationFailed([{ path: 'period', message: parsed }]);
  return parsed;
}

/**
 * The filer of `form` from the company profile. Issue #44: what the form's header must carry is checked
 * first, so nothing is frozen without it.
 * @throws 422 ValidationFailed naming each missing field of `PUT /1.6/company`
 */
export async function filerOf(ctx: Ctx, form: Form): Promise<Filer> {
  const p = await profile(ctx);
  const missing: { path: string; message: string }[] = [];
  const need = (ok: unknown, field: string, what: string) => {
    if (!ok) missing.push({ path: `company.${field}`, message: `${what}: set it with PUT /1.6/company` });
  };
  need(p.vatNumber, 'vatNumber', 'the IČ DPH the filing is made under');
  need(p.city, 'city', 'the municipality of the seat (Obec), mandatory in both forms');
  if (form !== 'KVDPH') {
    need(form === 'DPH' ? p.taxNumber : true, 'taxNumber', 'the DIČ (dic) of the VAT return');
    need(p.taxOffice, 'taxOffice', 'the tax office (danovyUrad) the return is addressed to');
    need(p.authorizedPersonName, 'authorizedPersonName', 'the person authorised to file (opravnenaOsoba)');
  }
  if (missing.length)
    throw unprocessable(
      ErrorCode.ValidationFailed,
      `the company lacks what the ${form === 'DPH' ? 'VAT return' : form === 'SV' ? 'recapitulative statement' : 'control statement'} must state`,
      { errors: missing },
    );
  return {
    vatNumber: p.vatNumber!,
    taxNumber: p.taxNumber ?? null,
    name: p.name,
    country: p.country,
    city: p.city!,
    postalCode: p.postalCode ?? null,
    street: p.street ?? null,
    streetNumber: p.streetNumber ?? null,
    phone: p.phone ?? null,
    email: p.email ?? null,
    taxOffice: p.taxOffice ?? null,
    authorizedPerson: p.authorizedPersonName
      ? {
          name: p.authorizedPersonName,
          phone: p.authorizedPersonPhone ?? null,
          email: p.authorizedPersonEmail ?? null,
        }
      : null,
  };
}

/**
 * Issue #44: the periods this service files, each on the form its schema takes: the VAT return on DPHv25
 * (periods from 2025-07; the form before it, DPHv21, is not written), the control statement on KVDPH_2025
 * (from 2025-01; the schema refuses an earlier `Rok`).
 * @throws 422 ValidationFailed naming `period` and the periods that are filed
 */
export function assertFiled(form: Form, period: FilingPeriod): void {
  const first = period.months[0];
  if (form === 'SV') return;
  const from = form === 'DPH' ? '2025-07' : '2025-01';
  if (first >= from) return;
  throw unprocessable(
    ErrorCode.ValidationFailed,
    form === 'DPH'
      ? `the VAT return of ${period.code} is not filed here: this service writes the DPHv25 form, for periods from 2025-07 (months) and 2025-Q3 (quarters)`
      : `the control statement of ${period.code} is not filed here: this service writes KVDPH_2025, for periods from 2025-01 (months) and 2025-Q1 (quarters)`,
    { errors: [{ path: 'period', message: `filed for periods from ${from}` }] },
  );
}
