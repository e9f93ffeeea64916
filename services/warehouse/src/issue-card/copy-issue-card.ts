/**
 * Copy into an issue card (INTERFACE §4.1; DESIGN §5 "Copy"): the source's stock rows merged, then issued
 * through the create command.
 */

import type { IssueCard, IssueCardInput } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, referenceNotFound } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { fmt } from '@bm/money';
import type { Ctx, DocumentDeps } from '@bm/service-kit';
import { resolveOrdner } from '../master-data/index.js';
import { mergeSourceRows } from './copy.rules.js';
import { loadSource } from './copy-source.js';
import { issueCard } from './issue-card.kind.js';

/**
 * Copy into an issue card (INTERFACE §4.1): rows merged by (itemId, lotNumberID, costPrice), then issued
 * by the warehouse's current valuation as of `dateOperation` (default today). `store: false` previews.
 */
export async function copyIssueCard(
  deps: DocumentDeps,
  ctx: Ctx,
  sourceId: string,
  dateOperation: string | undefined,
  store: boolean,
): Promise<IssueCard> {
  const src = await loadSource(deps, ctx, sourceId);
  if (src.cancelled)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      'a cancelled sales invoice cannot be copied',
      {
        errors: [{ path: 'sourceId', message: 'the sales invoice is cancelled' }],
      },
    );
  const rows = mergeSourceRows(src.rows);
  // Nothing to issue (only service items, or only credit rows): refused before any number is taken.
  if (!rows.length)
    throw new AppError(
      ErrorKind.unprocessable,
      ErrorCode.ValidationFailed,
      'the source has no row to issue: no stock item with a positive quantity',
      { errors: [{ path: 'sourceId', message: 'no stock item row with a positive quantity' }] },
    );
  if (!src.warehouseId) throw referenceNotFound('sourceId', 'warehouse of the source');
  if (!src.partnerId) throw referenceNotFound('sourceId', 'partner of the source');
  const ordnerId = src.ordnerId ?? (await resolveOrdner(ctx.em, null, undefined, 'IssueCard')).id;
  const date = dateOperation ?? todayIn(ctx.timeZone);
  const input: IssueCardInput = {
    ordnerId,
    warehouseId: src.warehouseId,
    partnerId: src.partnerId,
    partnerAddress: src.partnerAddress,
    itemsComment: src.itemsComment,
    dateCreated: date,
    dateOperation: date,
    sourceId,
    rows: rows.map((r) => ({
      itemId: r.itemId,
      lotNumberID: r.lotNumberID,
      quantity: fmt(r.quantity),
      code: r.code,
      name: r.name,
      unitId: r.unitId,
      ...(r.sellPrice !== null ? { sellPrice: r.sellPrice } : {}),
      ...(r.costPrice !== null ? { costPrice: r.costPrice } : {}),
    })),
  };
  return issueCard(deps, ctx, input, { store, sourceType: src.sourceType });
}
