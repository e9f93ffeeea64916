/**
 * Warehouse document operations (INTERFACE §4.1; DESIGN §2 "Copy path", §4 "Stock intake"): issue cards,
 * their copy under both spellings (`warehouse` and `warehouses`), receipt cards and the stock report.
 * The copy routes come before `/{id}` so `copy` is never read as an id.
 */
import {
  CopyQuery,
  copyIssueCard,
  createIssueCard,
  createReceiptCard,
  Guid,
  getIssueCard,
  getReceiptCard,
  getStock,
  IssueCard,
  IssueCardInput,
  IssueCardListItem,
  listIssueCards,
  listReceiptCards,
  Page,
  ReceiptCard,
  ReceiptCardInput,
  ReceiptCardListItem,
  StockQuery,
  StockReport,
  WarehouseDocumentListQuery,
  z,
} from '@bm/contracts';
import { isPage, type Operation, PageOrId, pageOf, Rendered } from './operation.js';

const IdParams = z.object({ id: Guid() });
const tag = 'Warehouse documents';

const copyOperations = (base: string): Operation[] => [
  {
    method: 'get',
    path: `${base}/issue-cards/copy`,
    summary: 'Copy into an issue card (preview: nothing stored, no ids)',
    description:
      'Source rows are merged by itemId, lotNumberID and costPrice, then issued by the current valuation as of dateOperation (today by default). The reply can be edited and posted to the create operation unchanged.',
    tag,
    query: CopyQuery,
    reply: IssueCard,
    xmlRoot: 'IssueCard',
    run: ({ query }, call) => call(copyIssueCard, { ...query, store: false }),
  },
  {
    method: 'post',
    path: `${base}/issue-cards/copy`,
    summary: 'Copy into an issue card (store)',
    tag,
    query: CopyQuery,
    reply: IssueCard,
    xmlRoot: 'IssueCard',
    status: 201,
    run: ({ query }, call) => call(copyIssueCard, { ...query, store: true }),
  },
];

/**
 * `GET {path}` (page 1) and `GET {path}/{page|id}` of a warehouse document (extension; DESIGN §2
 * "Lists", "Single records"): newest first by dateOperation, filters dateFrom, dateTo (of dateOperation),
 * warehouseId, partnerId; a GUID segment is one document with rows and accounting entries.
 */
function documentReads(d: {
  path: string;
  what: string;
  list: typeof listIssueCards | typeof listReceiptCards;
  listReply: z.ZodType;
  listRoot: string;
  get: typeof getIssueCard | typeof getReceiptCard;
  reply: z.ZodType;
  root: string;
}): Operation[] {
  return [
    {
      method: 'get',
      path: d.path,
      summary: `List ${d.what}s, page 1 (extension)`,
      tag,
      query: WarehouseDocumentListQuery,
      reply: d.listReply,
      xmlRoot: d.listRoot,
      run: ({ query }, call) => call(d.list as typeof listIssueCards, query),
    },
    {
      method: 'get',
      path: `${d.path}/{id}`,
      summary: `List ${d.what}s by page number, or get one ${d.what} with its accounting entries`,
      description: `An integer segment is a page of the list (newest first, 50 a page); a GUID is one ${d.what}.`,
      tag,
      params: PageOrId,
      query: WarehouseDocumentListQuery,
      reply: z.union([d.listReply, d.reply]),
      xmlRoot: d.listRoot,
      run: async ({ params, query }, call) =>
        isPage(params.id)
          ? new Rendered(
              await call(d.list as typeof listIssueCards, { ...query, page: pageOf(params.id) }),
              d.listReply,
              d.listRoot,
            )
          : new Rendered(await call(d.get as typeof getIssueCard, { id: params.id }), d.reply, d.root),
    },
  ];
}

export const warehouseOperations: Operation[] = [
  ...copyOperations('/1.6/warehouses'),
  ...copyOperations('/1.6/warehouse'),
  {
    method: 'post',
    path: '/1.6/warehouses/issue-cards',
    summary: 'Create an issue card',
    description:
      'Rows are valued by the warehouse valuation method; a costPrice sent under FIFO or WeightedAverage is replaced.',
    tag,
    body: { schema: IssueCardInput },
    reply: IssueCard,
    xmlRoot: 'IssueCard',
    status: 201,
    run: ({ body }, call) => call(createIssueCard, body),
  },
  ...documentReads({
    path: '/1.6/warehouses/issue-cards',
    what: 'issue card',
    list: listIssueCards,
    listReply: Page(IssueCardListItem),
    listRoot: 'IssueCards',
    get: getIssueCard,
    reply: IssueCard,
    root: 'IssueCard',
  }),
  {
    method: 'post',
    path: '/1.6/warehouses/receipt-cards',
    summary: 'Create a receipt card (stock intake)',
    tag,
    body: { schema: ReceiptCardInput },
    reply: ReceiptCard,
    xmlRoot: 'ReceiptCard',
    status: 201,
    run: ({ body }, call) => call(createReceiptCard, body),
  },
  ...documentReads({
    path: '/1.6/warehouses/receipt-cards',
    what: 'receipt card',
    list: listReceiptCards,
    listReply: Page(ReceiptCardListItem),
    listRoot: 'ReceiptCards',
    get: getReceiptCard,
    reply: ReceiptCard,
    root: 'ReceiptCard',
  }),
  {
    method: 'get',
    path: '/1.6/warehouses/{id}/stock',
    summary: 'Stock of a warehouse per item and lot as of the end of a date',
    tag,
    params: IdParams,
    query: StockQuery,
    reply: StockReport,
    xmlRoot: 'Stock',
    run: ({ params, query }, call) => call(getStock, { ...query, warehouseId: params.id }),
  },
];
