/**
 * The stock state a card (issue or receipt) is decided on (DESIGN §5): its period (share-locked when
 * storing, and refused if closed meanwhile), its keys' balances (locked when storing), the first open
 * FIFO layers of an issue card's current keys, and its place in the ledger (a value of the ledger
 * sequence, drawn after its balances are locked).
 *
 * In a group commit (issue #24) the group reads for all its cards with its `begin` ({@link cardGroupReads},
 * one round trip): the periods share-locked and checked, the balances of every key of the group locked in
 * one statement (sorted, per warehouse), then the first open layers of the keys and one ledger value per
 * card. The cards that share a key with an earlier card of the group come after it, in rounds
 * (`GroupTx.rounds`); each round's keys are read again, in one round trip with the earlier rounds' writes.
 */
import type { EntityManager, GroupRead, GroupTx } from '@bm/service-kit';
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

export const isCardStock = (p: unknown): p is CardStockInfo => (p as CardStockInfo)?.kind === 'card-stock';

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

/**
 * The group's read, per card (by its place in the group): its ledger value, and for a card none of whose
 * keys an earlier card of the group has (`fresh`), its balances and first open layers.
 */
type GroupStock = Map<
  number,
  { seq: string; fresh: boolean; balances: Map<string, BalanceRow>; layers: Map<string, LayerRow[]> }
>;

/** The group's cards (by place), every key they lock, which are `fresh`, and the keys whose layers are read. */
function groupCards(peers: readonly unknown[]) {
  const cards = [...peers.entries()].filter((e): e is [number, CardStockInfo] => isCardStock(e[1]));
  const keys = cards.flatMap(([, p]) =>
    p.keys.map((k) => ({ companyId: p.companyId, warehouseId: p.warehouseId, ...k })),
  );
  const seen = new Set<string>();
  const fresh = cards.map(([, p]) => {
    const f = p.locks.every((l) => !seen.has(l));
    for (const l of p.locks) seen.add(l);
    return f;
  });
  const fifoKeys = cards.flatMap(([, p], n) =>
    p.fifo && fresh[n]
      ? p.keys.map((k) => ({ companyId: p.companyId, warehouseId: p.warehouseId, ...k }))
      : [],
  );
  return { cards, keys, fresh, fifoKeys };
}

function groupStockOf(
  { cards, fresh }: ReturnType<typeof groupCards>,
  balances: Map<string, BalanceRow>,
  { layers, seqs }: { layers: Map<string, LayerRow[]>; seqs: string[] },
): GroupStock {
  const byKey = <T>(p: CardStockInfo, get: (k: StockKey) => T) =>
    new Map(p.keys.map((k) => [stockKey(k.itemId, k.lotNumberID), get(k)]));
  return new Map(
    cards.map(([i, p], n) => [
      i,
      {
        seq: seqs[n],
        fresh: fresh[n],
        balances: byKey(p, (k) => balances.get(layerKey(p.warehouseId, k))!),
        layers: byKey(p, (k) => layers.get(layerKey(p.warehouseId, k)) ?? []),
      },
    ]),
  );
}

/**
 * The group's stock (issue #24), read with the group's `begin`: every key of the group locked in one
 * sorted statement (no card of the group locks anything itself, and two groups never wait for each other
 * in opposite orders), then the first open layers of the fresh FIFO cards' keys and one ledger value per
 * card, ascending in the group's order, drawn after all its keys are locked. A key without a balance row
 * yet (its first movement) has the rows created and locked, and the layers and values read again after.
 */
const groupStockRead: GroupRead<GroupStock> = {
  key: 'stock:group',
  statements: (peers) => {
    const g = groupCards(peers);
    return [lockBalancesStatement(g.keys), openLayersStatement(g.fifoKeys, g.cards.length)];
  },
  result: async (rows, tx, peers) => {
    const g = groupCards(peers);
    const balances = lockedBalances(rows[0]);
    if (g.keys.every((k) => balances.has(layerKey(k.warehouseId, k))))
      return groupStockOf(g, balances, openLayersFrom(g.fifoKeys, rows[1]));
    const all = await lockBalancesOf(tx, g.keys);
    return groupStockOf(g, all, await openLayersAndSeqs(tx, g.fifoKeys, g.cards.length));
  },
};

/** The group's periods share-locked, then the closed ones among them (DESIGN §5; see period-state.repository.ts). */
const periodsRead: GroupRead<Set<string>> = {
  key: 'periods',
  statements: (peers) => periodStatesStatements(peers.filter(isCardStock)),
  result: (rows) => closedOf(rows),
};

/** What a stored card's group reads with its `begin` (`groupCommit`'s `opts.reads`). */
export const cardGroupReads: readonly GroupRead<unknown>[] = [periodsRead, groupStockRead];

/**
 * A card's stock state as of `dateOperation` (`YYYY-MM-DD`). Without `g`, a preview's: read, nothing
 * locked, no ledger value. With `g`, a stored card's in its group commit: its period share-locked (422
 * PeriodClosed if closed meanwhile) and its keys locked and read by the group (see the module comment).
 */
export async function readCardStock(
  tx: EntityManager,
  companyId: string,
  card: CardStockInfo & { dateOperation: string },
  g?: GroupTx,
): Promise<CardStock> {
  const { warehouseId, keys } = card;
  /** The FIFO card's keys that have no movement after its date (their first open layers are read ahead). */
  const currentOf = (balances: Map<string, BalanceRow | undefined>) =>
    card.fifo
      ? keys.filter((k) => isCurrent(balances.get(stockKey(k.itemId, k.lotNumberID)), card.dateOperation))
      : [];
  /** Those keys' first open layers, from the group's read (`layers` by stock key). */
  const prefetchedOf = (balances: Map<string, BalanceRow | undefined>, layers: Map<string, LayerRow[]>) =>
    new Map(
      currentOf(balances).map((k) => [
        stockKey(k.itemId, k.lotNumberID),
        layers.get(stockKey(k.itemId, k.lotNumberID))!,
      ]),
    );
  if (!g) {
    const balances = await readBalances(tx, companyId, warehouseId, keys);
    return {
      balances,
      prefetched: await prefetchOpenLayers(tx, companyId, warehouseId, currentOf(balances)),
      seq: '',
    };
  }
  // The period stays open until this card commits: closing it waits for this share lock (DESIGN §5).
  // The group locks the periods of all its cards at once, until the shared transaction ends.
  const closed = await g.read(periodsRead);
  if (closed.has(card.periodId)) throw periodClosedMeanwhile();
  const mine = (await g.read(groupStockRead)).get(g.self)!;
  if (mine.fresh)
    return { balances: mine.balances, prefetched: prefetchedOf(mine.balances, mine.layers), seq: mine.seq };
  // An earlier card of the group has one of its keys: its round is read once the earlier rounds' writes
  // are written.
  const round = g.rounds[g.self];
  const now = (await g.once(`stock:round:${round}`, () => readRoundStock(g, round))).get(g.self)!;
  return { balances: now.balances, prefetched: prefetchedOf(now.balances, now.layers), seq: mine.seq };
}

/**
 * The stock of the cards of round `round` (≥ 1) of the group (`GroupTx.rounds`: each shares a key with an
 * earlier card, none with another of its round), by place in the group: the deferred writes of the
 * earlier rounds are written, then the round's balances (locked by the group's opening read) and its FIFO
 * cards' first open layers are read, in one round trip.
 */
async function readRoundStock(
  g: GroupTx,
  round: number,
): Promise<Map<number, { balances: Map<string, BalanceRow>; layers: Map<string, LayerRow[]> }>> {
  const cards = [...g.peers.entries()].filter(
    (e): e is [number, CardStockInfo] => isCardStock(e[1]) && g.rounds[e[0]] === round,
  );
  const keysOf = (p: CardStockInfo) =>
    p.keys.map((k) => ({ companyId: p.companyId, warehouseId: p.warehouseId, ...k }));
  const fifoKeys = cards.flatMap(([, p]) => (p.fifo ? keysOf(p) : []));
  const [balanceRows, layerRows] = await g.flushThen([
    lockBalancesStatement(cards.flatMap(([, p]) => keysOf(p))),
    openLayersStatement(fifoKeys, 0),
  ]);
  const balances = lockedBalances(balanceRows);
  const { layers } = openLayersFrom(fifoKeys, layerRows);
  const byKey = <T>(p: CardStockInfo, get: (k: StockKey) => T) =>
    new Map(p.keys.map((k) => [stockKey(k.itemId, k.lotNumberID), get(k)]));
  return new Map(
    cards.map(([i, p]) => [
      i,
      {
        balances: byKey(p, (k) => balances.get(layerKey(p.warehouseId, k))!),
        layers: byKey(p, (k) => layers.get(layerKey(p.warehouseId, k)) ?? []),
      },
    ]),
  );
}
