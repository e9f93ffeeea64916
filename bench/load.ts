/**
 * The documents of the throughput benchmarks (issues #13, #24): a company with a FIFO warehouse, a partner
 * and stocked items; five-row issue cards (ordner VY) and ten-row sales invoices with two VAT rates
 * (ordner OF). Quantities and prices are exact decimals in the JSON bodies.
 */

/** What `prepareCompany` needs of a bench stack. */
export interface LoadTarget {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any>;
  today: string;
}

/** A company ready for the load: its headers, FIFO warehouse, partner and stocked items. */
export interface BenchCompany {
  headers: Record<string, string>;
  hs: { id: string };
  partner: { id: string };
  items: string[];
}

/** Creates a partner and `items` items with 10,000,000 in stock each, at cost 1.10 EUR, dated today. */
export async function prepareCompany(
  s: LoadTarget,
  headers: Record<string, string>,
  items: number,
): Promise<BenchCompany> {
  const call = (method: string, path: string, body?: unknown) => s.call(method, path, body, headers);
  const hs = (await call('GET', '/1.6/warehouses')).items[0]; // FIFO
  const partner = await call('POST', '/1.6/partners', {
    code: 'B1',
    name: 'Bench odberateľ s.r.o.',
    country: 'SK',
    vatNumber: 'SK2021000001',
  });
  const ids: string[] = [];
  for (let i = 0; i < items; i++)
    ids.push(
      (await call('POST', '/1.6/items', { code: `B${i}`, name: `Bench item ${i}`, sellPrice: 10 })).id,
    );
  for (let i = 0; i < items; i += 50)
    await call('POST', '/1.6/warehouses/receipt-cards', {
      ordnerCode: 'PR',
      warehouseId: hs.id,
      dateOperation: s.today,
      rows: ids.slice(i, i + 50).map((itemId) => ({ itemId, quantity: 10_000_000, costPrice: 1.1 })),
    });
  return { headers, hs, partner, items: ids };
}

/** A five-row issue card of five different random items, one piece each. */
export function issueCardBody(co: BenchCompany, today: string): string {
  const pick = new Set<string>();
  while (pick.size < 5) pick.add(co.items[Math.floor(Math.random() * co.items.length)]);
  return JSON.stringify({
    ordnerCode: 'VY',
    warehouseId: co.hs.id,
    partnerId: co.partner.id,
    dateOperation: today,
    rows: [...pick].map((itemId) => ({ itemId, quantity: 1 })),
  });
}

/** A ten-row sales invoice of service rows with VAT 23 % and 5 %. */
export function salesInvoiceBody(co: BenchCompany, today: string): string {
  return JSON.stringify({
    ordnerCode: 'OF',
    warehouseId: co.hs.id,
    partnerId: co.partner.id,
    dateCreated: today,
    rows: Array.from({ length: 10 }, (_, i) => ({
      name: `Položka ${i}`,
      quantity: 1 + (i % 3),
      price: (10 + i * 1.37).toFixed(2),
      vatRate: i % 2 ? 23 : 5,
    })),
  });
}

/**
 * A five-row sales invoice of five different random stocked items, one piece each, from the warehouse
 * (issue #38: the invoice's issue card is stored by the warehouse in the same request).
 */
export function stockedSalesInvoiceBody(co: BenchCompany, today: string): string {
  const pick = new Set<string>();
  while (pick.size < 5) pick.add(co.items[Math.floor(Math.random() * co.items.length)]);
  return JSON.stringify({
    ordnerCode: 'OF',
    warehouseId: co.hs.id,
    partnerId: co.partner.id,
    dateCreated: today,
    rows: [...pick].map((itemId) => ({ itemId, quantity: 1, price: '12.50', vatRate: 23 })),
  });
}
