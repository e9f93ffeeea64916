/**
 * The repost's revision of later documents (DESIGN §5 "Repost"), one pass: read them (stock-ledger/repost.reads.ts),
 * decide what changes (pure: rules/repost-revision.ts), write it (stock-ledger/repost.writer.ts), then refuse
 * the whole posting if a revalued document lies in a closed period.
 */
import type { Ctx, EntityManager } from '@bm/service-kit';
import type { PostingPlan } from './posting-types.js';
import { issueCardHeaders, laterReceipts } from './repost.reads.js';
import { writeIssueCardRevisions, writeReceiptRevisions } from './repost.writer.js';
import { reversalRevalued } from './rules/final-documents.js';
import type { IssuedPiece } from './rules/ledger-replay.js';
import {
  changedIssueCards,
  closedPeriodRefusal,
  type IssueCardRevision,
  type RevaluedDoc,
  reviseIssueCard,
  reviseReceiptEntries,
} from './rules/repost-revision.js';

/**
 * Revises the later issue cards whose pieces the replay changed (`reposted`: pieces per card and line)
 * and the later receipts whose settlement it may have changed (`receiptIds`), inside the posting's
 * transaction. `isClosed` tells which periods are closed.
 * @throws 422 PeriodClosed naming the first revalued document in a closed period; 409 InvalidState
 *   when a revalued issue card has been reversed (storno, issue #38).
 */
export async function reviseLaterDocuments(
  tx: EntityManager,
  ctx: Ctx,
  plan: PostingPlan,
  reposted: Map<string, Map<number, IssuedPiece[]>>,
  receiptIds: Set<string>,
  isClosed: (periodIds: string[]) => Promise<Set<string>>,
): Promise<void> {
  const companyId = ctx.companyId!;
  const { warehouse } = plan;
  const revalued: RevaluedDoc[] = [];

  const changed = changedIssueCards(reposted, plan.laterIssueRows);
  if (changed.length) {
    const headers = await issueCardHeaders(
      tx,
      changed.map(([id]) => id),
    );
    const revisions = new Map<string, IssueCardRevision>();
    for (const [cardId, lines] of changed) {
      const card = headers.get(cardId)!;
      if (card.reversalId) throw reversalRevalued(`issue card ${card.recordNumber}`);
      const r = reviseIssueCard(
        { ...card, companyId },
        plan.laterIssueRows.get(cardId)!,
        lines,
        warehouse,
        plan.doc.docId,
      );
      // Later keys of the same posting see the card's rows as revised.
      plan.laterIssueRows.set(cardId, r.rows);
      revisions.set(cardId, r);
      revalued.push({ kind: 'issue', id: cardId, recordNumber: card.recordNumber, periodId: card.periodId });
    }
    await writeIssueCardRevisions(tx, companyId, revisions);
  }

  if (receiptIds.size && warehouse.accounted) {
    const entries = new Map();
    for (const r of await laterReceipts(tx, [...receiptIds])) {
      const revised = reviseReceiptEntries(warehouse, r, r.entries);
      if (!revised) continue;
      entries.set(r.id, revised);
      revalued.push({ kind: 'receipt', id: r.id, recordNumber: r.recordNumber, periodId: r.periodId });
    }
    await writeReceiptRevisions(tx, companyId, entries);
  }

  const periodIds = [...new Set(revalued.map((r) => r.periodId).filter((p): p is string => !!p))];
  if (!periodIds.length) return;
  const refusal = closedPeriodRefusal(revalued, await isClosed(periodIds));
  if (refusal) throw refusal;
}
