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
  reverseIssueCard,
  reverseReceiptCard,
  StockQuery,
  StockReport,
  StornoBody,
  WarehouseDocumentListQuery,
  z,
} from '@bm/contracts';
import type { Operation } from './operation.js';
import { pagedReads } from './paged-reads.js';

const IdParams = z.object({ id: Guid() });
const tag = 'Warehouse documents';

/** The storno of a card (issue #38): `POST {base}/{id}/storno` with `{date?}`, 201 with the reversal card. */
const stornoOperation = (
  base: string,
  what: string,
  contract: typeof reverseIssueCard | typeof reverseReceiptCard,
  reply: typeof IssueCard | typeof ReceiptCard,
  xmlRoot: string,
): Operation => ({
  method: 'post',
  path: `${base}/{id}/storno`,
  summary: `Reverse (storno) ${what}`,
  description: `Stores the reversal: ${what} in the card's ordner with its own record number, its rows with negative quantities (an issue card's pieces back at the cost prices they left with; a receipt card's rows out at the receipt's cost, under FIFO from the receipt's own layer), its accounting entries negated, dated \`date\` (today by default, not before the card's dateOperation). Later movements of the items are reposted as for a back-dated card. The card gets \`reversed: true\` and \`reversalId\`. 409 InvalidState when the card is reversed already or is a reversal; 422 PeriodClosed naming the period of \`date\`; 422 OperationCanceledException with \`shortfalls\` when a receipt's stock has been issued since and negative stock is not allowed.`,
  tag,
  params: IdParams,
  body: { schema: StornoBody, optional: true },
  reply,
  xmlRoot,
  status: 201,
  run: ({ params, body }, call) => call(contract, { ...(body ?? {}), id: params.id }),
});

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
  ...pagedReads({
    path: '/1.6/warehouses/issue-cards',
    tag,
    listSummary: 'List issue cards (extension)',
    what: 'issue card',
    description:
      'An integer segment is a page (newest first by dateOperation, 50 a page, filters dateFrom, dateTo, warehouseId, partnerId); a GUID is one issue card with rows and accounting entries.',
    list: listIssueCards,
    query: WarehouseDocumentListQuery,
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
  ...pagedReads({
    path: '/1.6/warehouses/receipt-cards',
    tag,
    listSummary: 'List receipt cards (extension)',
    what: 'receipt card',
    description:
      'An integer segment is a page (newest first by dateOperation, 50 a page, filters dateFrom, dateTo, warehouseId, partnerId); a GUID is one receipt card with rows and accounting entries.',
    list: listReceiptCards,
    query: WarehouseDocumentListQuery,
    listReply: Page(ReceiptCardListItem),
    listRoot: 'ReceiptCards',
    get: getReceiptCard,
    reply: ReceiptCard,
    root: 'ReceiptCard',
  }),
  stornoOperation('/1.6/warehouses/issue-cards', 'an issue card', reverseIssueCard, IssueCard, 'IssueCard'),
  stornoOperation(
    '/1.6/warehouses/receipt-cards',
    'a receipt card',
    reverseReceiptCard,
    ReceiptCard,
    'ReceiptCard',
  ),
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
