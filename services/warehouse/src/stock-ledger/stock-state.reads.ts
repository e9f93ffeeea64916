/**
 * The stock state a card (issue or receipt) is decided on (DESIGN §5): its period (share-locked when
 * storing, and refused if closed meanwhile), its keys' balances (locked when storing), the first open
 * FIFO layers of an issue card's current keys, and its place in the ledger (a value of the ledger
 * sequence, drawn after its balances are locked).
 *
 * Stored, a card declares the two state reads of {@link cardGroupReads}; its group makes them for all its
 * cards with its `begin` (issue #24, one round trip): the periods share-locked and checked, the balances of
 * every key of the group locked in one statement (sorted, per warehouse), then the first open layers of the
 * first round's keys and one ledger value per card. A card that shares a key with an earlier card of its
 * group is read again by the engine once the earlier cards wrote (service-kit `StateRead.again`); the card
 * itself only asks for its own state.
 */
import type { DocumentTx, EntityManager, StateRead } from '@bm/service-kit';
import { closedOf, periodClosedMeanwhile, periodStatesStatements } from '../master-data/index.js';
import {
  type BalanceRow,
  isCurrent,
  type LayerRow,
  lockBalancesOf,
  lockBalancesStatement,
  lockedBalances,
  readBalances,
  type StockKey,
} from './balances.js';
import {
  openLayersAndSeqs,
  openLayersFrom,
  openLayersStatement,
  prefetchOpenLayers,
} from './open-layers.reads.js';
import { layerKey, stockKey, type ValuationMethod } from './rules/ledger-replay.js';

/** What a stored card declares to the other cards of its group (`groupCommit`'s `info`). */
export interface CardStockInfo {
  kind: 'card-stock';
  companyId: string;
  /** The card's accounting period (the group share-locks every card's at once). */
  periodId: string;
  warehouseId: string;
  fifo: boolean;
  /** Its distinct (item, lot) keys. */
  keys: StockKey[];
  /** Its declared locks (`<warehouseId>:<stockKey>`), one per key. */
  locks: readonly string[];
}

/** The state a card is valued on; `seq` is empty for a preview. */
export interface CardStock {
  balances: Map<string, BalanceRow | undefined>;
  /** First open layers of the FIFO card's keys that have no later movement (by `stockKey`). */
  prefetched: Map<string, LayerRow[]>;
  seq: string;
}

/**
 * What a card of `lines` declares: its distinct (item, lot) keys in warehouse `warehouseId` and its locks.
 * Layers are read ahead only for an issue card under FIFO (`fifo`); a receipt passes `'receipt'`.
 */
export function cardStockInfo(
  companyId: string,
  periodId: string,
  warehouseId: string,
  method: ValuationMethod | 'receipt',
  lines: readonly StockKey[],
): CardStockInfo {
  const keys = [
    ...new Map(
      lines.map((l) => [stockKey(l.itemId, l.lotNumberID), { itemId: l.itemId, lotNumberID: l.lotNumberID }]),
    ).values(),
  ];
  return {
    kind: 'card-stock',
    companyId,
    periodId,
    warehouseId,
    fifo: method === 'FIFO',
    keys,
    locks: keys.map((k) => layerKey(warehouseId, k)),
  };
}

/** A card's stock as its group reads it: its ledger value, balances and first open layers by stock key. */
interface ReadStock {
  seq: string;
  balances: Map<string, BalanceRow>;
  layers: Map<string, LayerRow[]>;
}

/** Every key of `cards`, with its company and warehouse. */
const keysOf = (cards: readonly CardStockInfo[]) =>
  cards.flatMap((p) => p.keys.map((k) => ({ companyId: p.companyId, warehouseId: p.warehouseId, ...k })));

/** Each card's balances and layers, by its stock keys, from the rows read for all. */
function byCard(
  cards: readonly CardStockInfo[],
  balances: Map<string, BalanceRow>,
  layers: Map<string, LayerRow[]>,
): { balances: Map<string, BalanceRow>; layers: Map<string, LayerRow[]> }[] {
  return cards.map((p) => {
    const byKey = <T>(get: (k: StockKey) => T) =>
      new Map(p.keys.map((k) => [stockKey(k.itemId, k.lotNumberID), get(k)]));
    return {
      balances: byKey((k) => balances.get(layerKey(p.warehouseId, k))!),
      layers: byKey((k) => layers.get(layerKey(p.warehouseId, k)) ?? []),
    };
  });
}

/**
 * The cards' stock (issue #24), read with the group's `begin`: every key of the group locked in one
 * sorted statement (no card locks anything itself, and two groups never wait for each other in opposite
 * orders), then the first open layers of the first round's FIFO cards' keys and one ledger value per card,
 * ascending in the group's order, drawn after all its keys are locked. A key without a balance row yet
 * (its first movement) has the rows created and locked, and the layers and values read again after. A
 * later round's cards are read again after the earlier rounds' writes: their balances and layers.
 */
const stockState: StateRead<CardStockInfo, ReadStock> = {
  key: 'stock:cards',
  statements: (cards, first) => {
    const fifoKeys = keysOf(cards.filter((p, n) => p.fifo && first[n]));
    return [lockBalancesStatement(keysOf(cards)), openLayersStatement(fifoKeys, cards.length)];
  },
  states: async (rows, tx, cards, first) => {
    const keys = keysOf(cards);
    const fifoKeys = keysOf(cards.filter((p, n) => p.fifo && first[n]));
    let balances = lockedBalances(rows[0]);
    let read = openLayersFrom(fifoKeys, rows[1]);
    if (!keys.every((k) => balances.has(layerKey(k.warehouseId, k)))) {
      balances = await lockBalancesOf(tx, keys);
      read = await openLayersAndSeqs(tx, fifoKeys, cards.length);
    }
    return byCard(cards, balances, read.layers).map((c, n) => ({ ...c, seq: read.seqs[n] }));
  },
  again: {
    statements: (cards) => [
      lockBalancesStatement(keysOf(cards)),
      openLayersStatement(keysOf(cards.filter((p) => p.fifo)), 0),
    ],
    states: (rows, _tx, cards, before) => {
      const { layers } = openLayersFrom(keysOf(cards.filter((p) => p.fifo)), rows[1]);
      return byCard(cards, lockedBalances(rows[0]), layers).map((c, n) => ({ ...c, seq: before[n].seq }));
    },
  },
};

/** The cards' periods share-locked, then whether each card's is closed (DESIGN §5; see period-state.ts). */
const periodState: StateRead<CardStockInfo, boolean> = {
  key: 'periods',
  statements: (cards) => periodStatesStatements([...cards]),
  states: (rows, _tx, cards) => {
    const closed = closedOf(rows);
    return cards.map((p) => closed.has(p.periodId));
  },
};

/** What a stored card declares its group reads with its `begin` (`Declaration.reads`). */
export const cardGroupReads: readonly StateRead<CardStockInfo, unknown>[] = [periodState, stockState];

/**
 * A card's stock state as of `dateOperation` (`YYYY-MM-DD`). Without `doc`, a preview's: read, nothing
 * locked, no ledger value. With `doc`, a stored card's: its period share-locked by its group (422
 * PeriodClosed if closed meanwhile) and its keys locked and read by the group (see the module comment).
 */
export async function readCardStock(
  tx: EntityManager,
  companyId: string,
  card: CardStockInfo & { dateOperation: string },
  doc?: DocumentTx,
): Promise<CardStock> {
  const { warehouseId, keys } = card;
  /** The FIFO card's keys that have no movement after its date (their first open layers are read ahead). */
  const currentOf = (balances: Map<string, BalanceRow | undefined>) =>
    card.fifo
      ? keys.filter((k) => isCurrent(balances.get(stockKey(k.itemId, k.lotNumberID)), card.dateOperation))
      : [];
  if (!doc) {
    const balances = await readBalances(tx, companyId, warehouseId, keys);
    return {
      balances,
      prefetched: await prefetchOpenLayers(tx, companyId, warehouseId, currentOf(balances)),
      seq: '',
    };
  }
  // The period stays open until this card commits: closing it waits for this share lock (DESIGN §5).
  if (await doc.state(periodState)) throw periodClosedMeanwhile();
  const mine = await doc.state(stockState);
  const prefetched = new Map(
    currentOf(mine.balances).map((k) => [
      stockKey(k.itemId, k.lotNumberID),
      mine.layers.get(stockKey(k.itemId, k.lotNumberID))!,
    ]),
  );
  return { balances: mine.balances, prefetched, seq: mine.seq };
}
