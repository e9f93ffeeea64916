/**
 * Issue #24: the gateway's JSON reply of a ten-row sales invoice, written by the compiled writer
 * (`renderJson`, gateway/src/http/render-json.ts) side by side with the walk it replaced
 * (`JSON.stringify(renderOutput(…))`), and `JSON.stringify` of the reply as it is (no decimals rendered) as
 * the floor. Same reply, same run, alternating rounds; µs per reply, best round of each.
 * Usage: pnpm bench reply-rendering   (ROUNDS 5, N 20000 renders per round)
 */
import { SalesInvoice } from '@bm/contracts';
import { renderJson } from '../gateway/src/http/render-json.js';
import { renderOutput } from '../gateway/src/http/schema-walk.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const N = Number(process.env.N ?? 20_000);
const id = () => crypto.randomUUID();
const row = () => ({
  id: id(),
  quantity: '2.0000',
  price: '12.5000',
  priceBrutto: '15.3750',
  itemId: id(),
  unitId: id(),
  code: 'ITEM-0001',
  name: 'Tovar číslo jeden',
  vatID: id(),
  vatCode: 'S23',
  vatRate: '23.00',
  vatParagraphID: null,
  sumBase: '25.00',
  sumVat: '5.75',
  sumTotal: '30.75',
});
const invoice = {
  id: id(),
  ordnerId: id(),
  warehouseId: id(),
  dateCreated: '2026-11-25',
  rows: Array.from({ length: 10 }, row),
  recordNumber: 'OF2026000123',
  tags: [],
  partnerId: id(),
  partnerDetail: 'Firma s.r.o.',
  partnerAddress: 'Hlavná 1, Bratislava',
  partnerCountry: 'SK',
  symbolVariable: '2026000123',
  dateAccounting: '2026-11-25',
  periodId: id(),
  vatID: id(),
  vatCode: 'S23',
  vatRate: '23.00',
  sumBase: '250.00',
  sumVat: '57.50',
  sumTotal: '307.50',
  vatSummary: [
    { vatRate: '23.00', base: '200.00', vat: '46.00' },
    { vatRate: '19.00', base: '50.00', vat: '9.50' },
  ],
};
const schema = SalesInvoice as any;
if (renderJson(schema, invoice) !== JSON.stringify(renderOutput(schema, invoice, 'json')))
  throw new Error('the two renderings differ');

const ways: [string, () => unknown][] = [
  ['renderJson (compiled writer)', () => renderJson(schema, invoice)],
  ['JSON.stringify(renderOutput(…)) (before)', () => JSON.stringify(renderOutput(schema, invoice, 'json'))],
  ['JSON.stringify, nothing rendered (floor)', () => JSON.stringify(invoice)],
];
const best = new Map<string, number>();
for (let r = 0; r < ROUNDS; r++)
  for (const [name, fn] of ways) {
    const t = performance.now();
    for (let i = 0; i < N; i++) fn();
    const us = ((performance.now() - t) / N) * 1000;
    best.set(name, Math.min(best.get(name) ?? Infinity, us));
  }
console.log(`${JSON.stringify(invoice).length} bytes of reply, ${ROUNDS} rounds of ${N}:\n`);
console.log('| rendering | µs per reply |');
console.log('|---|---|');
for (const [name] of ways) console.log(`| ${name} | ${best.get(name)!.toFixed(1)} |`);
