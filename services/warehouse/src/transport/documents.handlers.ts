/**
 * Warehouse document endpoints (INTERFACE §4.1; DESIGN §4 "Stock intake"): transport only, each
 * decodes the contract's request and calls its use case.
 */
import {
  copyIssueCard,
  createIssueCard,
  createReceiptCard,
  getIssueCard,
  getReceiptCard,
  getStock,
  listIssueCards,
  listReceiptCards,
} from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import * as lists from '../application/document-list.service.js';
import { stockReport } from '../application/stock.service.js';
import { copyIssueCard as copyCard } from '../commands/copy-issue-card.js';
import { issueCard, type WarehouseDeps } from '../commands/create-issue-card.js';
import { createReceiptCard as createReceiptCardCommand } from '../commands/create-receipt-card.js';
import { getIssueCard as readIssueCard } from '../queries/issue-cards.js';
import { getReceiptCard as readReceiptCard } from '../queries/receipt-cards.js';

type X = { em: Ctx['em'] };

export function registerDocuments(deps: WarehouseDeps): void {
  const { kit } = deps;
  serve<typeof createIssueCard, X>(
    kit.service,
    createIssueCard,
    (input, ctx) => issueCard(deps, ctx, input, { store: true }),
    kit.serveOpts,
  );
  serve<typeof getIssueCard, X>(
    kit.service,
    getIssueCard,
    ({ id }, ctx) => readIssueCard(ctx.em, id),
    kit.serveOpts,
  );
  serve<typeof copyIssueCard, X>(
    kit.service,
    copyIssueCard,
    (q, ctx) => copyCard(deps, ctx, q.sourceId, q.dateOperation, q.store),
    kit.serveOpts,
  );
  serve<typeof createReceiptCard, X>(
    kit.service,
    createReceiptCard,
    (input, ctx) => createReceiptCardCommand(deps, ctx, input),
    kit.serveOpts,
  );
  serve<typeof getReceiptCard, X>(
    kit.service,
    getReceiptCard,
    ({ id }, ctx) => readReceiptCard(ctx.em, id),
    kit.serveOpts,
  );
  serve<typeof listIssueCards, X>(
    kit.service,
    listIssueCards,
    (q, ctx) => lists.listIssueCards(ctx, q),
    kit.serveOpts,
  );
  serve<typeof listReceiptCards, X>(
    kit.service,
    listReceiptCards,
    (q, ctx) => lists.listReceiptCards(ctx, q),
    kit.serveOpts,
  );
  serve<typeof getStock, X>(
    kit.service,
    getStock,
    (q, ctx) => stockReport(ctx, q.warehouseId, q.date, q.itemId),
    kit.serveOpts,
  );
}
