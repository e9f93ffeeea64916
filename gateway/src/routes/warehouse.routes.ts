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
  ReceiptCard,
  ReceiptCardInput,
  StockQuery,
  StockReport,
  z,
} from '@bm/contracts';
import type { Operation } from './operation.js';

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
  {
    method: 'get',
    path: '/1.6/warehouses/issue-cards/{id}',
    summary: 'Get an issue card with its accounting entries',
    tag,
    params: IdParams,
    reply: IssueCard,
    xmlRoot: 'IssueCard',
    run: ({ params }, call) => call(getIssueCard, params),
  },
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
  {
    method: 'get',
    path: '/1.6/warehouses/receipt-cards/{id}',
    summary: 'Get a receipt card',
    tag,
    params: IdParams,
    reply: ReceiptCard,
    xmlRoot: 'ReceiptCard',
    run: ({ params }, call) => call(getReceiptCard, params),
  },
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
