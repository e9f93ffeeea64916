/**
 * `GET /1.6/reports/{reportId}` (INTERFACE §4.3 "Get invoice printout"; DESIGN §2 "Printout", §7):
 * with `output`/`recordID` in the query it is the printout, otherwise the report definition (DESIGN §4).
 *
 * Printout rules: `reportId` is the report's GUID or code; the record parameter matches `recordID`
 * case-insensitively; `Accept` must name `application/pdf` (alone or in a list; missing, `*\/*` alone or
 * only other types → 406); `output` other than `pdf` → 400; unknown or another company's record → 404.
 * The PDF is fetched from the object store where the reporting service left it, and deleted after.
 */
import {
  type CancelPrintout,
  isGuid,
  PRINTOUT_BUCKET,
  PRINTOUT_CANCEL_SUBJECT,
  Report,
  renderPrintout,
  reports,
  z,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, validationFailed } from '@bm/errors';
import { type NatsConnection, request } from '@bm/messaging';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { Objm } from '@nats-io/obj';
import type { Context, MiddlewareHandler } from 'hono';
import { acceptsExplicitly, parseAccept } from '../http/negotiate.js';
import { problemResponses } from '../http/problem-responses.js';
import { type GatewayEnv, messageContext, operationIdOf, render } from './operation.js';

export interface PrintoutDeps {
  nc: NatsConnection;
  timeoutMs: number;
}

/**
 * `Content-Disposition` of a printout (RFC 6266 with RFC 8187): an ASCII `filename` (other characters
 * as `_`, quotes and backslashes dropped) for old clients and `filename*` in UTF-8 for the real name,
 * so a record number with Č (ordner `FČ…`) prints instead of failing on a non-ByteString header.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The query of a printout request, names matched case-insensitively. */
function printoutQuery(c: Context): { output?: string; recordId?: string; unknown: string[] } | null {
  const q: { output?: string; recordId?: string; unknown: string[] } = { unknown: [] };
  let any = false;
  for (const [k, v] of new URL(c.req.url).searchParams) {
    const key = k.toLowerCase();
    if (key === 'output') {
      q.output = v;
      any = true;
    } else if (key === 'recordid') {
      q.recordId = v;
      any = true;
    } else q.unknown.push(k);
  }
  return any ? q : null;
}

/**
 * Registers `GET /1.6/reports/{reportId}` (DESIGN §2 "Printout", §7): with `output=pdf&recordID=…` the
 * printout, rendered by reporting and handed over through the object store; without them the report
 * definition. Errors: 400 (output other than pdf), 401/403, 404, 406 (Accept not naming application/pdf).
 */
export function registerPrintoutRoute(
  app: OpenAPIHono<GatewayEnv>,
  deps: PrintoutDeps,
  authenticate: MiddlewareHandler<GatewayEnv>,
  negotiate: MiddlewareHandler<GatewayEnv>,
): void {
  // Made on first use, so the app (and its documents) can be built before the connection is used.
  let objm: Objm | undefined;
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/1.6/reports/{reportId}',
    operationId: operationIdOf('get', '/1.6/reports/{reportId}'),
    summary: 'Printout of a record as PDF (with output=pdf&recordID=…), or the report definition (without)',
    description:
      'Printout: `reportId` is the GUID or code of a report (built-in `SalesInvoice`, `IssueCard`); `recordID` (any case) is the record. `Accept` must name application/pdf. Without `output`/`recordID` the reply is the report definition (JSON or XML).',
    tags: ['Reports'],
    security: [{ basic: [], clientId: [], clientSecret: [], companyId: [] }],
    request: {
      params: z.object({
        reportId: z.string().openapi({ description: 'GUID or code of the report' }),
      }) as any,
      query: z.object({ output: z.enum(['pdf']).optional(), recordID: z.guid().optional() }) as any,
    },
    responses: {
      200: {
        description: 'The PDF printout, or the report definition',
        content: {
          'application/pdf': { schema: { type: 'string', format: 'binary' } },
          'application/json': { schema: Report as any },
          'application/xml': { schema: Report as any },
        },
      },
      ...problemResponses,
    },
  });

  const definition: MiddlewareHandler<GatewayEnv> = async (c) => {
    const id = c.req.param('reportId') ?? '';
    if (!isGuid(id))
      throw validationFailed([
        {
          path: 'path.reportId',
          message: 'expected a GUID (or output=pdf&recordID=… for a printout by code)',
        },
      ]);
    const ctx = messageContext(c);
    const report = await request(deps.nc, reports.get, { id }, ctx, { timeoutMs: deps.timeoutMs });
    return render(c, 200, 'Report', Report, report, c.get('format'));
  };

  const printout: MiddlewareHandler<GatewayEnv> = async (c, next) => {
    const q = printoutQuery(c);
    if (!q) {
      let res: Response | undefined;
      await negotiate(c, async () => {
        res = (await definition(c, next)) as Response;
      });
      return res;
    }
    const accept = c.req.header('accept');
    if (
      !acceptsExplicitly(accept, 'application/pdf') ||
      parseAccept(accept).find((r) => r.type === 'application/pdf')?.q === 0
    ) {
      throw new AppError(
        ErrorKind.not_acceptable,
        ErrorCode.NotAcceptable,
        'a printout needs the header Accept: application/pdf',
      );
    }
    const errors = [
      ...q.unknown.map((k) => ({ path: `query.${k}`, message: 'unknown query parameter' })),
      ...(q.output?.toLowerCase() !== 'pdf'
        ? [{ path: 'query.output', message: 'only output=pdf is supported' }]
        : []),
      ...(!q.recordId
        ? [{ path: 'query.recordID', message: 'required: the id of the record to print' }]
        : []),
      ...(q.recordId && !isGuid(q.recordId) ? [{ path: 'query.recordID', message: 'expected a GUID' }] : []),
    ];
    if (errors.length) throw validationFailed(errors);
    const ctx = messageContext(c);
    // A client that gives up (closes the connection, or the request times out) cancels its render, so
    // it stops holding one of the company's printout slots (issue #22).
    const renderId = crypto.randomUUID();
    const cancel = () => {
      const body: CancelPrintout = { renderId };
      try {
        deps.nc.publish(PRINTOUT_CANCEL_SUBJECT, JSON.stringify(body));
      } catch {
        // The link is down: the render ends at its own deadline instead.
      }
    };
    const signal = c.req.raw.signal;
    signal.addEventListener('abort', cancel, { once: true });
    let done: Awaited<ReturnType<typeof request<typeof renderPrintout>>>;
    try {
      done = await request(
        deps.nc,
        renderPrintout,
        { reportId: c.req.param('reportId') ?? '', recordId: q.recordId!, renderId },
        ctx,
        { timeoutMs: Math.max(deps.timeoutMs, 60_000) },
      );
    } catch (e) {
      if (e instanceof AppError && e.kind === ErrorKind.timeout && !signal.aborted) cancel();
      throw e;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
    objm ??= new Objm(deps.nc);
    const store = await objm.open(PRINTOUT_BUCKET);
    const pdf = await store.getBlob(done.objectName);
    void store.delete(done.objectName).catch(() => undefined);
    if (!pdf)
      throw new AppError(
        ErrorKind.unavailable,
        ErrorCode.ServiceUnavailable,
        'the printout expired before it was fetched; try again',
      );
    return c.body(pdf as unknown as ArrayBuffer, 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': contentDisposition(done.fileName),
      'Content-Length': String(pdf.byteLength),
    });
  };

  app.get('/1.6/reports/:reportId', authenticate, printout);
}
