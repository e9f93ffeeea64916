/**
 * Issue cards as read (INTERFACE §2.1; DESIGN §2): one card by id and the reply mapper every path of the
 * warehouse uses for a stored card. ORM reads only.
 */
import type { IssueCard, SourceType } from '@bm/contracts';
import { notFound } from '@bm/errors';
import { type EntityManager, entryDtos } from '@bm/service-kit';
import { AccountingEntryEntity, IssueCardEntity, IssueCardRowEntity } from '../schema/entities.js';

/** A stored card, its rows and entries as the ORM reads them. */
export type CardRow = InstanceType<typeof IssueCardEntity.class>;
export type CardRowRow = InstanceType<typeof IssueCardRowEntity.class>;
export type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

/** The reply shape of a stored card. */
export function cardDto(card: CardRow, rows: CardRowRow[], entries: EntryRow[]): IssueCard {
  return {
    id: card.id,
    ordnerId: card.ordnerId,
    warehouseId: card.warehouseId,
    partnerId: card.partnerId,
    recordNumber: card.recordNumber,
    tags: card.tags ?? [],
    partnerAddress: card.partnerAddress ?? null,
    dateCreated: card.dateCreated,
    dateAccounting: card.dateAccounting,
    dateOperation: card.dateOperation,
    periodId: card.periodId ?? null,
    itemsComment: card.itemsComment ?? null,
    reportId: card.reportId ?? null,
    rows: rows
      .sort((a, b) => a.rowNo - b.rowNo)
      .map((r) => ({
        id: r.id,
        itemId: r.itemId,
        code: r.code ?? null,
        name: r.name ?? null,
        unitId: r.unitId ?? null,
        lotNumberID: r.lotNumberId ?? null,
        quantity: r.quantity,
        sellPrice: r.sellPrice,
        costPrice: r.costPrice,
        amount: r.amount,
      })),
    totalCost: card.totalCost,
    sourceId: card.sourceId ?? null,
    sourceType: (card.sourceType as SourceType | null) ?? null,
    accountingEntries: entryDtos(entries),
    reversed: card.reversalId != null,
    reversalId: card.reversalId ?? null,
    reversalOf: card.reversalOf ?? null,
  };
}

/** `GET /1.6/warehouses/issue-cards/{id}`: 404 NotFound for an unknown or another company's id. */
export async function getIssueCard(em: EntityManager, id: string): Promise<IssueCard> {
  const card = await em.findOne(IssueCardEntity, { id });
  if (!card) throw notFound('Issue card');
  const [rows, entries] = await Promise.all([
    em.find(IssueCardRowEntity, { issueCardId: id }),
    em.find(AccountingEntryEntity, { documentId: id }),
  ]);
  return cardDto(card, rows, entries);
}
