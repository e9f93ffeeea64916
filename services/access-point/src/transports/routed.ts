/**
 * Per-company routing of outbound documents (issue #35): a company on SAPI-SK (its own provider, or the
 * default when `PEPPOL_AP=sapi`) sends through its provider; every other company through the deployment's
 * transport. SAPI-SK has no status operation: `follow` is `unknown` and a retry sends again under the
 * same `Idempotency-Key`, which the provider collapses. Every send tells the company's access (issue
 * #43): a working contact, or the failure that holds the invoice back.
 */
import type { CompanyAccess } from '../application/company-access.js';
import { RetryLater, sendViaSapi } from './sapi/send.js';
import type { Transport } from './transport.js';

/** `PEPPOL_AP=sapi`: every company goes through {@link routedTransport}; nothing is left for this one. */
export function sapiDefaultTransport(): Transport {
  return {
    name: 'sapi',
    async submit() {
      throw new Error('no SAPI-SK credentials for this company (SAPI_* or PUT /1.6/company/access-point)');
    },
    async follow() {
      return 'unknown';
    },
    async registered() {
      return null;
    },
    async startInbound() {
      return async () => {};
    },
  };
}

export function routedTransport(base: Transport, access: CompanyAccess): Transport {
  return {
    name: base.name,
    async submit(doc) {
      const sapi = await access.sapiOf(doc.companyId);
      if (!sapi) return base.submit(doc);
      try {
        const outcome = await sendViaSapi(sapi.client, doc);
        // A document the provider refused is the document's fault: the contact itself worked.
        await access.succeeded(doc.companyId, sapi.settings);
        return outcome;
      } catch (e) {
        if (e instanceof RetryLater)
          await access.failed(doc.companyId, sapi.settings, (e.cause as Error | undefined) ?? e, 'send');
        throw e;
      }
    },
    async follow(doc) {
      if ('companyId' in doc && (await access.sapiOf(doc.companyId))) return 'unknown';
      return base.follow(doc);
    },
    registered: (peppolId) => base.registered(peppolId),
    startInbound: (receive) => base.startInbound(receive),
  };
}
