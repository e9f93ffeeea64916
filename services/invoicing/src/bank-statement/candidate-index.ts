/**
 * The open invoices an import's entries may pay, indexed so that each entry's candidates are found
 * without a scan (issue #45 "Pairing uses indexes, never a scan per entry"; the profile of the 10,000-entry
 * benchmark showed one partner's 20,000 invoices scanned for each entry without a symbol). Pure.
 *
 * By variable symbol; by partner, oldest first; by partner and what is open (the counterparty rule only
 * pairs an invoice whose open amount is exactly the entry's). An invoice's open amount changes as the
 * entries before it pay it: {@link CandidateIndex.paid} keeps the index by amount current.
 */
import { dec, fmt } from '@bm/money';
import { vsKey } from '../bank-format/index.js';
import type { StoredOpenInvoice } from '../bank-pairing/index.js';
import { type EntryToPair, payable } from '../payment-rules/index.js';

/**
 * How many invoices of one partner an entry's rule sees at most: enough to tell one exact amount from
 * several, and what a person is shown of an unpaired one (the rule lists 20).
 */
const SHOWN = 20;
/** How far down a partner's oldest-first list the display candidates are looked for (paid ones skipped). */
const LOOK = 2_000;

const amountKey = (v: string) => fmt(dec(v).abs());

export class CandidateIndex {
  private readonly byVs = new Map<string, StoredOpenInvoice[]>();
  private readonly byPartner = new Map<string, StoredOpenInvoice[]>();
  private readonly byAmount = new Map<string, Map<string, Set<StoredOpenInvoice>>>();

  constructor(invoices: Iterable<StoredOpenInvoice>) {
    for (const i of invoices) {
      const k = vsKey(i.symbolVariable);
      if (k) push(this.byVs, k, i);
      if (i.partnerId) {
        push(this.byPartner, i.partnerId, i);
        this.amounts(i.partnerId).get(amountKey(i.open))?.add(i) ??
          this.amounts(i.partnerId).set(amountKey(i.open), new Set([i]));
      }
    }
    for (const list of this.byPartner.values())
      list.sort((a, b) =>
        a.dateCreated < b.dateCreated
          ? -1
          : a.dateCreated > b.dateCreated
            ? 1
            : a.recordNumber.localeCompare(b.recordNumber),
      );
  }

  private amounts(partnerId: string) {
    let m = this.byAmount.get(partnerId);
    if (!m) {
      m = new Map();
      this.byAmount.set(partnerId, m);
    }
    return m;
  }

  /**
   * The invoices the rule needs for `entry`: those with its VS, and of its counterparty's partners those
   * open for exactly its amount and the oldest few it may pay (what a person is shown).
   */
  candidates(entry: EntryToPair, partnerIds: ReadonlySet<string>): StoredOpenInvoice[] {
    const out = new Set<StoredOpenInvoice>();
    const vs = vsKey(entry.symbolVariable);
    if (vs) for (const i of this.byVs.get(vs) ?? []) out.add(i);
    let exact = 0;
    for (const p of partnerIds)
      for (const i of this.byAmount.get(p)?.get(amountKey(entry.amount)) ?? []) {
        if (exact >= SHOWN) break;
        if (!payable(entry, i)) continue;
        out.add(i);
        exact++;
      }
    // No exact amount: the oldest open invoices of the counterparty, for a person to choose from.
    if (!exact)
      for (const p of partnerIds) {
        let shown = 0;
        let looked = 0;
        for (const i of this.byPartner.get(p) ?? []) {
          if (shown >= SHOWN || ++looked > LOOK) break;
          if (!payable(entry, i)) continue;
          out.add(i);
          shown++;
        }
      }
    return [...out];
  }

  /** `inv` was paid `amount` (signed as the payment; negative undoes one): its open amount and place move. */
  paid(inv: StoredOpenInvoice, amount: string): void {
    const before = amountKey(inv.open);
    inv.open = fmt(dec(inv.open).minus(dec(amount)));
    if (!inv.partnerId) return;
    const m = this.amounts(inv.partnerId);
    m.get(before)?.delete(inv);
    const after = amountKey(inv.open);
    m.get(after)?.add(inv) ?? m.set(after, new Set([inv]));
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
