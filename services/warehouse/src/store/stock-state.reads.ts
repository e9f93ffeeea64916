/**
 * The stock state an issue card is valued on (DESIGN §5): its keys' balances (locked when storing), the
 * first open FIFO layers of its current keys, and its place in the ledger (a value of the ledger
 * sequence, drawn after its balances are locked).
 *
 * In a group commit (issue #24) the first card reads for the whole group: the balances of every key that
 * only one card of the group has are locked in one statement (sorted, per warehouse), then their layers
 * and one ledger value per such card are read in one more. A card sharing a key with another card of its
 * group reads for itself, after the earlier card's deferred writes of that key are written
 * (`g.flushFor`). So a group of n cards costs two statements, not 2n.
 */
import type { EntityManager, GroupTx } from '@bm/service-kit';
import { stockKey } from '../domain/ledger-replay.js';
import {
  type BalanceRow,
  isCurrent,
  type LayerRow,
  layerKey,
  lockBalances,
  openLayersAndSeqs,
  prefetchOpenLayers,
  prefetchOpenLayersAndSeq,
  readBalances,
  type StockKey,
} from '../persistence/stock-ledger.repository.js';

/** What a stored issue card declares to the other cards of its group (`groupCommit`'s `info`). */
export interface CardStockInfo {
  kind: 'issue-card-stock';
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

const isCardStock = (p: unknown): p is CardStockInfo => (p as CardStockInfo)?.kind === 'issue-card-stock';

/** The group's read: per card whose keys no other card of the group has, its balances and ledger value. */
type GroupStock = Map<
  number,
  { balances: Map<string, BalanceRow>; seq: string; layers: Map<string, LayerRow[]> }
>;

async function readGroupStock(
  tx: EntityManager,
  companyId: string,
  peers: readonly unknown[],
): Promise<GroupStock> {
  const uses = new Map<string, number>();
  for (const p of peers) if (isCardStock(p)) for (const l of p.locks) uses.set(l, (uses.get(l) ?? 0) + 1);
  const alone = [...peers.entries()].filter(
    (e): e is [number, CardStockInfo] => isCardStock(e[1]) && e[1].locks.every((l) => uses.get(l) === 1),
  );
  const byWarehouse = new Map<string, StockKey[]>();
  for (const [, p] of alone)
    byWarehouse.set(p.warehouseId, [...(byWarehouse.get(p.warehouseId) ?? []), ...p.keys]);
  const balances = new Map<string, Map<string, BalanceRow>>();
  for (const [warehouseId, keys] of [...byWarehouse].sort(([a], [b]) => (a < b ? -1 : 1)))
    balances.set(warehouseId, await lockBalances(tx, companyId, warehouseId, keys));
  const fifoKeys = alone.flatMap(([, p]) =>
    p.fifo ? p.keys.map((k) => ({ warehouseId: p.warehouseId, ...k })) : [],
  );
  const { layers, seqs } = await openLayersAndSeqs(tx, companyId, fifoKeys, alone.length);
  return new Map(
    alone.map(([i, p], n) => [
      i,
      {
        balances: new Map(
          p.keys.map((k) => [
            stockKey(k.itemId, k.lotNumberID),
            balances.get(p.warehouseId)!.get(stockKey(k.itemId, k.lotNumberID))!,
          ]),
        ),
        seq: seqs[n],
        layers: new Map(
          p.keys.map((k) => [
            stockKey(k.itemId, k.lotNumberID),
            layers.get(layerKey(p.warehouseId, k)) ?? [],
          ]),
        ),
      },
    ]),
  );
}

/**
 * Reads (preview: `store` false, nothing locked, no ledger value) or locks and reads (storing) a card's
 * stock state as of `dateOperation` (`YYYY-MM-DD`); see the module comment for the group's read.
 */
export async function readCardStock(
  tx: EntityManager,
  companyId: string,
  card: CardStockInfo & { dateOperation: string },
  mode: { store: boolean; g?: GroupTx },
): Promise<CardStock> {
  const { warehouseId, keys } = card;
  const currentOf = (balances: Map<string, BalanceRow | undefined>) =>
    card.fifo
      ? keys.filter((k) => isCurrent(balances.get(stockKey(k.itemId, k.lotNumberID)), card.dateOperation))
      : [];
  if (!mode.store) {
    const balances = await readBalances(tx, companyId, warehouseId, keys);
    return {
      balances,
      prefetched: await prefetchOpenLayers(tx, companyId, warehouseId, currentOf(balances)),
      seq: '',
    };
  }
  const g = mode.g;
  const mine = g && (await g.once('stock:group', () => readGroupStock(tx, companyId, g.peers))).get(g.self);
  if (mine) {
    const prefetched = new Map(
      currentOf(mine.balances).map((k) => [
        stockKey(k.itemId, k.lotNumberID),
        mine.layers.get(stockKey(k.itemId, k.lotNumberID))!,
      ]),
    );
    return { balances: mine.balances, prefetched, seq: mine.seq };
  }
  // An earlier card of the group that deferred writes of these keys: written before they are read.
  await g?.flushFor(card.locks);
  const balances = await lockBalances(tx, companyId, warehouseId, keys);
  const { layers, seq } = await prefetchOpenLayersAndSeq(tx, companyId, warehouseId, currentOf(balances));
  return { balances, prefetched: layers, seq };
}
