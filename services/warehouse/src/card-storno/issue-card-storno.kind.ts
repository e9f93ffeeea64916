/**
 * The storno of an issue card (issue #38), as a document kind: a reversal issue card in the card's
 * ordner, with its own record number, whose rows are the card's pieces with negative quantities at the
 * cost prices they left with; in the stock ledger they come back at those costs (a `return`, ruled as a
 * receipt: it settles a negative balance first). Accounting entries: the card's, with negative amounts.
 * The card is marked reversed; neither card can be reversed afterwards.
 */
import type { IssueCard } from '@bm/contracts';
import { fmt, sum } from '@bm/money';
import type { DocumentKind } from '@bm/service-kit';
import { type IssueCardWriteSet, storedIssueCardReply } from '../issue-card/index.js';
import type { CardStock } from '../stock-ledger/index.js';
import { declareStorno, markReversed, postReversal, readStornoStock, TABLE } from './storno.posting.js';
import type { IssueCardRow, IssueRowRow, ResolvedStorno } from './storno.resolve.js';
import { issueStornoWriter, type StornoWriteSet } from './storno.writer.js';

export type IssueStorno = ResolvedStorno<IssueCardRow, IssueRowRow>;

/** `POST /1.6/warehouses/issue-cards/{id}/storno` as a document kind (service-kit `runDocument`). */
export const issueCardStorno: DocumentKind<
  IssueStorno,
  CardStock,
  StornoWriteSet<IssueCardWriteSet>,
  IssueCard
> = {
  // Issue cards and their reversals share the ordner's counter: one group for both.
  key: 'warehouse:issue-card',
  declare: (s) => declareStorno(s, TABLE.IssueCard),
  read: (s, g) => readStornoStock(s, g),
  async decide(s, stock, g) {
    await markReversed(g.tx, TABLE.IssueCard, s);
    await postReversal(s, 'return', stock, g);
    return decideIssueReversal(s);
  },
  writer: issueStornoWriter,
  reply: storedIssueCardReply,
};

/** The reversal card of `s` (pure): the card's rows negated, dated on the reversal's date. */
export function decideIssueReversal(
  s: IssueStorno,
  newId: () => string = () => crypto.randomUUID(),
): StornoWriteSet<IssueCardWriteSet> {
  const { card } = s;
  const rows = s.rows.map((r) => ({
    id: newId(),
    itemId: r.itemId,
    code: r.code ?? null,
    name: r.name ?? null,
    unitId: r.unitId ?? null,
    lotNumberID: r.lotNumberId ?? null,
    quantity: neg(r.quantity),
    sellPrice: r.sellPrice,
    costPrice: r.costPrice,
    amount: neg(r.amount),
  }));
  return {
    cardId: s.reversalId,
    companyId: s.companyId,
    eventId: newId(),
    header: {
      ordnerId: card.ordnerId,
      warehouseId: card.warehouseId,
      partnerId: card.partnerId,
      tags: card.tags ?? [],
      partnerAddress: card.partnerAddress ?? null,
      dateCreated: s.date,
      dateAccounting: s.date,
      dateOperation: s.date,
      periodId: s.periodId,
      itemsComment: card.itemsComment ?? null,
      reportId: card.reportId ?? null,
      sourceId: null,
      sourceType: null,
    },
    rows,
    lines: s.rows.map((_, i) => i),
    totalCost: fmt(sum(rows.map((r) => r.amount))),
    accounts: s.warehouse,
    createdAt: new Date(),
    reversalOf: card.id,
    reversedRecordNumber: card.recordNumber,
  };
}

/** A stored decimal negated, as an exact string. */
const neg = (v: string) => fmt(sum([v]).neg());
