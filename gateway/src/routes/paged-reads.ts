/**
 * The two read operations of a document resource (INTERFACE §4.2, §4.3; DESIGN §2 "Lists", "Single
 * records"): `GET {path}` (page 1) and `GET {path}/{page|id}` (a page, or one record by GUID).
 */
import { type Contract, z } from '@bm/contracts';
import { validationFailed } from '@bm/errors';
import { type Operation, Rendered } from './operation.js';

/**
 * Path parameter of `GET …/{page}` operations that also get one record by id (DESIGN §2 "Single
 * records"): an integer segment is a page, a GUID one record.
 */
const PageOrId = z.object({
  id: z
    .string()
    .regex(/^(\d{1,9}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/, {
      message: 'expected a page number (1, 2, …) or a record id (GUID)',
    })
    .openapi({ description: 'A page number (integer from 1; 50 a page) or the GUID of one record.' }),
});
/** True when a `PageOrId` segment is a page number. */
const isPage = (s: string) => /^\d+$/.test(s);
/** The page number of a `PageOrId` segment; 400 for 0. */
const pageOf = (s: string) => {
  const n = Number(s);
  if (n < 1) throw validationFailed([{ path: 'path.page', message: 'page numbers start at 1' }]);
  return n;
};

/**
 * `GET {path}` (page 1 of the list) and `GET {path}/{page|id}` (a page, or one record by GUID) of a
 * document resource (INTERFACE §4.2, §4.3 `{page}`; DESIGN §2 "Lists", "Single records"). The list query
 * (paging and filters) applies to both.
 */
export function pagedReads(d: {
  path: string;
  tag: string;
  /** Summary of the list, e.g. "Sales invoices list view". */
  listSummary: string;
  /** What one record is, e.g. "sales invoice". */
  what: string;
  description?: string;
  list: Contract;
  query: z.ZodObject;
  listReply: z.ZodType;
  listRoot: string;
  get: Contract;
  reply: z.ZodType;
  root: string;
}): Operation[] {
  return [
    {
      method: 'get',
      path: d.path,
      summary: `${d.listSummary}, page 1`,
      tag: d.tag,
      query: d.query,
      reply: d.listReply,
      xmlRoot: d.listRoot,
      run: ({ query }, call) => call(d.list, query),
    },
    {
      method: 'get',
      path: `${d.path}/{id}`,
      summary: `${d.listSummary} by page number, or one ${d.what} by id`,
      description: d.description,
      tag: d.tag,
      params: PageOrId,
      query: d.query,
      reply: z.union([d.listReply, d.reply]),
      xmlRoot: d.listRoot,
      run: async ({ params, query }, call) =>
        isPage(params.id)
          ? new Rendered(await call(d.list, { ...query, page: pageOf(params.id) }), d.listReply, d.listRoot)
          : new Rendered(await call(d.get, { id: params.id }), d.reply, d.root),
    },
  ];
}
