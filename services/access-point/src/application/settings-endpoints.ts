/**
 * `access-point.settings.*` (issue #35): the company's access point as the gateway asks for it
 * (`GET`/`PUT /1.6/company/access-point`, `POST …/test`). Transport only, but for the test, which is one
 * token mint and one mailbox listing.
 */
import { getAccessPointSettings, putAccessPointSettings, testAccessPointSettings } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type RequestContext, type ServeOptions, serve } from '@bm/messaging';
import type { ServiceGroup } from '@nats-io/services';
import { SapiError } from '../transports/sapi/errors.js';
import { holds } from '../transports/sapi/holds.js';
import type { CompanyAccess } from './company-access.js';

function companyOf(ctx: RequestContext): string {
  if (!ctx.companyId)
    throw new AppError(
      ErrorKind.invalid,
      ErrorCode.BadRequest,
      'this request names its company (Company-Id)',
    );
  return ctx.companyId;
}

/**
 * Mints a token and lists the company's mailbox once. @throws 409 InvalidState when the company does not
 * use SAPI-SK; 502 AccessPointError with the provider's code, category and message
 */
async function testConnection(access: CompanyAccess, companyId: string) {
  const settings = await access.settings(companyId);
  const sapi = await access.sapiOf(companyId);
  if (!sapi || !settings.participantId)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      !sapi
        ? 'the company does not use a SAPI-SK access point: PUT /1.6/company/access-point first'
        : 'the company has no Peppol id (peppolId of PUT /1.6/company): its mailbox cannot be named',
    );
  try {
    // A person's test tries now, whatever the back-off of refused credentials says (one mint).
    holds.tryNow(sapi.client.key);
    await sapi.client.token(true);
    const page = await sapi.client.list(settings.participantId, null);
    await access.succeeded(companyId, settings);
    return {
      ok: true as const,
      transport: 'sapi' as const,
      documentsWaiting: page.documents.length,
      more: page.nextPageToken !== null,
      checkedAt: new Date().toISOString(),
    };
  } catch (e) {
    if (!(e instanceof SapiError)) throw e;
    await access.failed(companyId, settings, e, 'test');
    throw new AppError(
      ErrorKind.bad_gateway,
      ErrorCode.AccessPointError,
      `the access point answered ${e.code}: ${e.message}`,
      {
        extensions: {
          providerCode: e.code,
          category: e.category,
          retryable: e.retryable,
          httpStatus: e.status,
        },
      },
    );
  }
}

export function serveSettings(service: ServiceGroup, access: CompanyAccess, opts: ServeOptions): void {
  serve(
    service,
    getAccessPointSettings,
    async (_q, ctx) => access.view(await access.settings(companyOf(ctx))),
    opts,
  );
  serve(service, putAccessPointSettings, (input, ctx) => access.put(companyOf(ctx), input), opts);
  serve(service, testAccessPointSettings, (_q, ctx) => testConnection(access, companyOf(ctx)), opts);
}
