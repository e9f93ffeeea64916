/**
 * VAT filings (issue #37; DESIGN §6b), served by invoicing:
 *
 * - `GET /1.6/tax/control-statements/{period}`, `GET /1.6/tax/vat-returns/{period}` and (issue #44)
 *   `GET /1.6/tax/recapitulative-statements/{period}`: JSON, or with `Accept: application/xml` the official
 *   XML (KVDPH_2025; the DPHv25 `dokument`; the SVDPHv20 `dokument`).
 * - `PUT /1.6/tax/control-statements/{period}/manual`: D.1 and D.2 figures of the period.
 * - `POST …/{period}/filings` (`{kind?}`): freeze a filing (201); `GET …/{period}/filings`: the list.
 * - `GET /1.6/tax/filings/{id}`: a filing's frozen bytes (`ETag` of their SHA-256).
 */
import {
  ControlStatement,
  FileInput,
  fileControlStatement,
  fileRecapitulativeStatement,
  fileVatReturn,
  getControlStatement,
  getRecapitulativeStatement,
  getVatFiling,
  getVatReturn,
  isGuid,
  listVatFilings,
  ManualFiguresInput,
  putManualFigures,
  RecapitulativeStatement,
  VatFiling,
  VatReturn,
  z,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type NatsConnection, request } from '@bm/messaging';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { parseAccept } from '../http/negotiate.js';
import { problemResponses } from '../http/problem-responses.js';
import { type GatewayEnv, messageContext, type Operation, operationIdOf, render } from './operation.js';

const PeriodParams = z.object({
  period: z
    .string()
    .openapi({ description: 'A month `2027-01` or a quarter `2027-Q1`, as the company files (vatPeriod)' }),
});
const Filings = z.object({ items: z.array(VatFiling) });

/** The operations through the generic handler. */
export const taxOperations: Operation[] = [
  {
    method: 'put',
    path: '/1.6/tax/control-statements/{period}/manual',
    summary: 'D.1 (cash-register totals) and D.2 (supplies without an invoice) of a period, per rate',
    tag: 'VAT filings',
    params: PeriodParams,
    body: { schema: ManualFiguresInput },
    reply: ControlStatement.omit({ xml: true }),
    xmlRoot: 'ControlStatement',
    run: ({ params, body }, call) => call(putManualFigures, { period: params.period, data: body }),
  },
  ...(['control-statements', 'vat-returns', 'recapitulative-statements'] as const).flatMap(
    (kind): Operation[] => [
      {
        method: 'post',
        path: `/1.6/tax/${kind}/{period}/filings`,
        summary:
          kind === 'recapitulative-statements'
            ? 'File the recapitulative statement (§80): freeze the XML (R first; then O for corrected lines or D for lines never filed)'
            : `File the ${kind === 'control-statements' ? 'control statement' : 'VAT return'}: freeze the XML (R first; then D by default or O before the deadline)`,
        description:
          '201 with the filing; 409 InvalidState when nothing changed since the last filing; 422 naming the documents to fix, the company data the header lacks, or a period not filed.',
        tag: 'VAT filings',
        params: PeriodParams,
        body: { schema: FileInput },
        reply: VatFiling,
        xmlRoot: 'VatFiling',
        status: 201,
        run: ({ params, body }, call) =>
          call(
            kind === 'control-statements'
              ? fileControlStatement
              : kind === 'vat-returns'
                ? fileVatReturn
                : fileRecapitulativeStatement,
            { period: params.period, data: body ?? {} },
          ),
      },
      {
        method: 'get',
        path: `/1.6/tax/${kind}/{period}/filings`,
        summary: 'The filings of a period, oldest first',
        tag: 'VAT filings',
        params: PeriodParams,
        reply: Filings,
        xmlRoot: 'VatFilings',
        run: ({ params }, call) =>
          call(listVatFilings, {
            form: kind === 'control-statements' ? 'KVDPH' : kind === 'vat-returns' ? 'DPH' : 'SV',
            period: params.period,
          }),
      },
    ],
  ),
];

const XML_TYPES = ['application/xml', 'text/xml'];
const wantsXml = (accept: string | undefined) =>
  !!accept && parseAccept(accept).some((r) => XML_TYPES.includes(r.type));

/** Registers the routes that answer the official XML (statement, return, a filing's bytes) behind `authenticate`. */
export function registerTaxRoutes(
  app: OpenAPIHono<GatewayEnv>,
  deps: { nc: NatsConnection; timeoutMs: number },
  authenticate: MiddlewareHandler<GatewayEnv>,
): void {
  const forms = [
    {
      path: 'control-statements',
      contract: getControlStatement,
      reply: ControlStatement,
      root: 'ControlStatement',
      title: 'The control statement (KVDPH_2025)',
    },
    {
      path: 'vat-returns',
      contract: getVatReturn,
      reply: VatReturn,
      root: 'VatReturn',
      title: 'The VAT return (DPH 2025)',
    },
    {
      path: 'recapitulative-statements',
      contract: getRecapitulativeStatement,
      reply: RecapitulativeStatement,
      root: 'RecapitulativeStatement',
      title: 'The recapitulative statement (SVDPHv20, §80)',
    },
  ] as const;
  for (const f of forms) {
    const path = `/1.6/tax/${f.path}/{period}`;
    app.openAPIRegistry.registerPath({
      method: 'get',
      path,
      operationId: operationIdOf('get', path),
      summary: `${f.title} of a period, from the books`,
      description:
        'JSON, or with `Accept: application/xml` the XML the Financial Administration takes. 400 for a malformed period or one of the other length than the company files; 422 naming the documents to fix.',
      tags: ['VAT filings'],
      security: [{ basic: [], clientId: [], clientSecret: [], companyId: [] }],
      request: { params: PeriodParams as any },
      responses: {
        200: {
          description: 'The statement or return',
          content: {
            'application/json': { schema: f.reply as any },
            'application/xml': { schema: { type: 'string' } },
          },
        },
        ...problemResponses,
      },
    } as any);
    app.get(`/1.6/tax/${f.path}/:period`, authenticate, async (c) => {
      const xml = wantsXml(c.req.header('accept'));
      const r: any = await request(
        deps.nc,
        f.contract,
        { period: c.req.param('period') ?? '', xml },
        messageContext(c),
        { timeoutMs: deps.timeoutMs },
      );
      if (xml) return c.body(r.xml, 200, { 'Content-Type': 'application/xml; charset=utf-8' });
      return render(c, 200, f.root, f.reply, r, 'json');
    });
  }
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/1.6/tax/filings/{id}',
    operationId: operationIdOf('get', '/1.6/tax/filings/{id}'),
    summary: 'A filing’s frozen XML, byte for byte',
    tags: ['VAT filings'],
    security: [{ basic: [], clientId: [], clientSecret: [], companyId: [] }],
    request: { params: z.object({ id: z.guid() }) as any },
    responses: {
      200: {
        description: 'The bytes as filed',
        content: { 'application/xml': { schema: { type: 'string' } } },
      },
      ...problemResponses,
    },
  } as any);
  app.get('/1.6/tax/filings/:id', authenticate, async (c) => {
    const id = c.req.param('id') ?? '';
    if (!isGuid(id)) throw new AppError(ErrorKind.not_found, ErrorCode.NotFound, 'VAT filing not found');
    const f = await request(deps.nc, getVatFiling, { id: id.toLowerCase() }, messageContext(c), {
      timeoutMs: deps.timeoutMs,
    });
    const bytes = Buffer.from(f.xml ?? '', 'base64');
    return c.body(bytes as unknown as ArrayBuffer, 200, {
      'Content-Type': 'application/xml',
      ETag: `"${f.sha256}"`,
      'VAT-Filing-Kind': f.kind,
    });
  });
}
