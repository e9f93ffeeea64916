/**
 * What the two storno kinds share (issue #38): their declaration (the card's stock keys and period, read
 * by the group like a card's), their stock state, the original marked reversed, and the reversal posted
 * to the stock ledger (a back-dated reversal reposts the later movements, stock-ledger/ledger-posting.ts).
 */
import { type Declaration, type DocumentTx, type EntityManager, numberingOf } from '@bm/service-kit';
import {
  type CardStock,
  cardGroupReads,
  operationCanceled,
  type PostingPlan,
  planPosting,
  readCardStock,
  storePostingInGroup,
} from '../stock-ledger/index.js';
import { reversedMeanwhile } from './reversal.rules.js';
import type { ResolvedStorno } from './storno.resolve.js';

/** The cards' tables, as numbering and the reversal mark name them. */
export const TABLE = {
  IssueCard: '"warehouse"."issue_card"',
  ReceiptCard: '"warehouse"."receipt_card"',
} as const;

type AnyStorno = ResolvedStorno<{ id: string; recordNumber: string }, unknown>;

/** A reversal's declaration: numbered in the card's ordner on its date; its stock keys locked. */
export function declareStorno(s: AnyStorno, table: string): Declaration {
  return {
    numbering: numberingOf({ table, companyId: s.companyId, ordner: s.ordner, date: s.date }),
    locks: s.stockInfo.locks,
    info: s.stockInfo,
    reads: cardGroupReads,
  };
}

/** The reversal's stock state as of its date (its period share-locked: 422 PeriodClosed if closed meanwhile). */
export function readStornoStock(s: AnyStorno, g: DocumentTx): Promise<CardStock> {
  return readCardStock(g.tx, s.companyId, { ...s.stockInfo, dateOperation: s.date }, g);
}

/**
 * Marks the original reversed by `s.reversalId`, holding its row until the commit.
 * @throws 409 InvalidState when another storno reversed it meanwhile.
 */
export async function markReversed(tx: EntityManager, table: string, s: AnyStorno): Promise<void> {
  const hit = await tx.execute<{ id: string }[]>(
    `update ${table} set "reversal_id" = ? where "id" = ? and "reversal_id" is null returning "id"`,
    [s.reversalId, s.card.id],
  );
  if (!hit.length) throw reversedMeanwhile(s.card.recordNumber);
}

/**
 * Posts the reversal (`return`: an issue card's; `withdrawal`: a receipt card's, from the receipt's own
 * layers `layerIds` by line) to the stock ledger inside the group: the replay values it, refuses it where
 * stock would go negative and that is not allowed (422 OperationCanceledException with `shortfalls`), and
 * its writes go with the group's (or, back-dated, are made at once with the repost).
 */
export async function postReversal(
  s: AnyStorno,
  kind: 'return' | 'withdrawal',
  stock: CardStock,
  g: DocumentTx,
  layerIds: Map<number, string[]> = new Map(),
): Promise<PostingPlan> {
  const plan = await planPosting(
    g.tx,
    s.companyId,
    s.warehouse,
    {
      kind,
      docId: s.reversalId,
      date: s.date,
      lines: s.lines.map((l) => ({ ...l, layerIds: layerIds.get(l.line) ?? [] })),
    },
    stock.balances,
    stock.prefetched,
    (shortfalls) => {
      throw operationCanceled(shortfalls, s.items);
    },
  );
  await storePostingInGroup(g, s.ctx, plan, stock);
  return plan;
}
