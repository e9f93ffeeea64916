/**
 * A sales invoice as an EN 16931 e-invoice (issue #21; DESIGN §6a "Mapping"). Pure: data in, model out.
 *
 * Rules (figures are the invoice's own, to the cent):
 * - A negative `sumTotal` makes a CreditNote (381) whose quantities and amounts are the invoice's with the
 *   sign turned, so the document's totals are positive; otherwise an Invoice (380).
 * - VAT categories (BT-118/BT-151) from the VAT code's kind: standard/reduced/OSS `S`, zero `Z`, exempt
 *   `E`, intra-community `K` (goods, paragraph IC-GOODS) or `AE` (services under reverse charge, paragraph
 *   IC-SERVICES), export `G`; the exemption reason (BT-120/BT-121, VATEX) where the category needs one.
 * - VAT breakdown (BG-23) per category and rate: taxable amount and VAT from the invoice's `vatSummary`
 *   (a VAT code whose rows fall into two categories, possible only at 0 %, is split by its rows' bases).
 * - Line net amounts (BT-131): the row's `sumBase`; with `bonusPercent` (creation mode) the row before
 *   the bonus, round(quantity × price), and the bonus is a document-level allowance (BG-20, reason code
 *   95) per category: Σ lines − category taxable amount. Where gross prices make Σ row bases differ from
 *   the category's taxable amount by rounding, the difference is a document-level allowance or charge
 *   "Zaokrúhlenie", so BR-CO-10/13/15 hold without changing any figure.
 * - Net price (BT-146): the row's `price`, or, where quantity × price misses the line amount by more than
 *   half a cent (gross prices, PEPPOL-EN16931-R120), line amount / quantity with as many decimals as
 *   needed (up to 10).
 * Units: decimal strings, amounts 2 decimals in the invoice currency, quantities and prices as stored.
 */
import { type Dec, dec, fmt, round2 } from '@bm/money';
import type { EAllowanceCharge, EInvoice, ELine, EParty, EVatBreakdown, VatCategory } from './model.js';
import { netPriceFor } from './net-price.js';
import { endpointOf } from './peppol-endpoint.js';
import type { EInvoiceSource } from './source.js';
import { categoryOf, exemptionOf } from './vat-category.js';

const money = (d: Dec) => round2(d).toFixed(2);
const text = (s: string | null | undefined) => (s?.trim() ? s.trim() : null);

/** Builds the e-invoice of a sales invoice (see the module comment for the rules). */
export function eInvoiceFromSalesInvoice(src: EInvoiceSource): EInvoice {
  const inv = src.invoice;
  const credit = dec(inv.sumTotal).isNegative();
  const sign = dec(credit ? -1 : 1);
  const bonus = inv.mode === 'creation' && inv.bonusPercent && !dec(inv.bonusPercent).isZero();

  // Rows → lines, each with its category.
  /** A row on its way to a line: its line, amount, (category|rate) key and its own signed base. */
  type Work = {
    line: ELine;
    amount: Dec;
    rowBase: Dec;
    key: string;
    vatId: string;
    paragraphId: string | null;
  };
  const work: Work[] = inv.rows.map((r, i) => {
    const info = src.vatCodes[r.vatId];
    const category = categoryOf(info, r.vatParagraphId);
    const q = dec(r.quantity).mul(sign);
    const price = dec(r.price);
    const amount = bonus ? round2(q.mul(price)) : dec(r.sumBase).mul(sign);
    // BT-146 is never negative (BR-27): the quantity carries the sign of the amount.
    const qty = amount.isZero() ? q : amount.isNegative() ? q.abs().neg() : q.abs();
    return {
      key: `${category}|${fmt(r.vatRate)}`,
      vatId: r.vatId,
      paragraphId: r.vatParagraphId,
      amount,
      rowBase: dec(r.sumBase).mul(sign),
      line: {
        id: String(i + 1),
        quantity: fmt(qty),
        unitCode: r.unitCode || 'C62',
        netAmount: money(amount),
        netPrice: netPriceFor(qty, amount, price),
        name: text(r.name) ?? text(r.code) ?? `Položka ${i + 1}`,
        sellerItemId: text(r.code),
        category,
        rate: fmt(r.vatRate),
      },
    };
  });

  // Taxable amount and VAT per (category, rate): whole VAT codes from the summary; a code split over
  // two categories (0 %) by its rows' bases.
  const categoriesOfCode = new Map<string, Set<string>>();
  for (const w of work) {
    const s = categoriesOfCode.get(w.vatId) ?? new Set<string>();
    s.add(w.key);
    categoriesOfCode.set(w.vatId, s);
  }
  const groups = new Map<
    string,
    { category: VatCategory; rate: string; taxable: Dec; tax: Dec; lines: Dec }
  >();
  const group = (key: string, category: VatCategory, rate: string) => {
    let g = groups.get(key);
    if (!g) {
      g = { category, rate, taxable: dec(0), tax: dec(0), lines: dec(0) };
      groups.set(key, g);
    }
    return g;
  };
  for (const w of work) {
    const g = group(w.key, w.line.category, w.line.rate);
    g.lines = g.lines.plus(w.amount);
  }
  for (const line of inv.vatSummary) {
    const keys = categoriesOfCode.get(line.vatID);
    if (!keys) continue;
    if (keys.size === 1) {
      const key = [...keys][0];
      const [category, rate] = key.split('|') as [VatCategory, string];
      const g = group(key, category, rate);
      g.taxable = g.taxable.plus(dec(line.base).mul(sign));
      g.tax = g.tax.plus(dec(line.vat).mul(sign));
    } else {
      for (const w of work.filter((x) => x.vatId === line.vatID)) {
        const g = group(w.key, w.line.category, w.line.rate);
        g.taxable = g.taxable.plus(w.rowBase);
      }
      // The VAT of a split code (0 % in practice) stays with its first category.
      const first = group([...keys][0], ...([...keys][0].split('|') as [VatCategory, string]));
      first.tax = first.tax.plus(dec(line.vat).mul(sign));
    }
  }

  const allowanceCharges: EAllowanceCharge[] = [];
  const vatBreakdown: EVatBreakdown[] = [];
  for (const [key, g] of groups) {
    const diff = g.lines.minus(g.taxable);
    if (!diff.isZero()) {
      const isBonus = bonus && diff.isPositive();
      allowanceCharges.push({
        charge: diff.isNegative(),
        amount: money(diff.abs()),
        reason: isBonus ? `Zľava ${fmt(inv.bonusPercent!)} %` : 'Zaokrúhlenie',
        reasonCode: isBonus ? '95' : null,
        category: g.category,
        rate: g.rate,
      });
    }
    // The paragraph of the group's own rows states why they are exempt (E).
    const paragraphText =
      work
        .filter((w) => w.key === key && w.paragraphId)
        .map((w) => src.vatCodes[w.vatId]?.paragraphs[w.paragraphId!]?.text)
        .find((t) => !!t) ?? null;
    const ex = exemptionOf(g.category, paragraphText);
    vatBreakdown.push({
      category: g.category,
      rate: g.rate,
      taxable: money(g.taxable),
      tax: money(g.tax),
      exemptionReason: ex.reason,
      exemptionCode: ex.code,
    });
  }

  const lineTotal = work.reduce((s, w) => s.plus(w.amount), dec(0));
  const allowanceTotal = allowanceCharges
    .filter((a) => !a.charge)
    .reduce((s, a) => s.plus(dec(a.amount)), dec(0));
  const chargeTotal = allowanceCharges
    .filter((a) => a.charge)
    .reduce((s, a) => s.plus(dec(a.amount)), dec(0));
  const taxExclusive = dec(inv.sumBase).mul(sign);
  const taxTotal = dec(inv.sumVat).mul(sign);
  const taxInclusive = dec(inv.sumTotal).mul(sign);

  const s = src.seller;
  const seller: EParty = {
    name: s.name,
    endpoint: endpointOf({
      peppolId: s.peppolId,
      country: s.country,
      taxNumber: s.taxNumber,
      vatNumber: inv.vatNumber ?? s.vatNumber,
    }),
    vatId: inv.vatNumber ?? s.vatNumber,
    taxNumber: text(s.taxNumber),
    legalId: text(s.companyNumber),
    legalInfo: text(s.registration),
    street: text(s.street),
    city: text(s.city),
    postalCode: text(s.postalCode),
    country: s.country,
    email: text(s.email),
    phone: text(s.phone),
  };
  const b = src.buyer;
  const buyerName = text(inv.partnerDetail?.split('\n')[0]) ?? text(b?.name);
  const buyer: EParty = {
    name: buyerName ?? '',
    endpoint: endpointOf({
      peppolId: b?.peppolId,
      country: inv.partnerCountry,
      taxNumber: b?.taxNumber,
      vatNumber: inv.partnerNumber3,
    }),
    vatId: text(inv.partnerNumber3),
    taxNumber: text(b?.taxNumber),
    legalId: text(b?.companyNumber),
    legalInfo: null,
    street: text(b?.street),
    city: text(b?.city),
    postalCode: text(b?.postalCode),
    country: text(inv.partnerCountry),
    email: text(b?.email),
    phone: null,
  };
  const taxPoint = inv.dateDelivery ?? inv.dateCreated;
  return {
    documentType: credit ? 'CreditNote' : 'Invoice',
    typeCode: credit ? '381' : '380',
    id: inv.recordNumber,
    issueDate: inv.dateCreated,
    dueDate: inv.dateValidTo,
    taxPointDate: taxPoint,
    currency: inv.currency,
    buyerReference: text(inv.orderRecordNo) ?? inv.recordNumber,
    orderReference: text(inv.orderRecordNo),
    precedingInvoice: src.corrected
      ? { id: src.corrected.recordNumber, issueDate: src.corrected.dateCreated }
      : null,
    note: text(inv.commentAboveItems),
    seller,
    buyer,
    delivery: { date: taxPoint, country: buyer.country },
    payment: src.bankAccount
      ? {
          meansCode: '58',
          paymentId: text(inv.symbolVariable),
          iban: src.bankAccount.iban,
          bic: text(src.bankAccount.bic),
          accountName: s.name,
        }
      : null,
    lines: work.map((w) => w.line),
    allowanceCharges,
    vatBreakdown,
    totals: {
      lineTotal: money(lineTotal),
      allowanceTotal: money(allowanceTotal),
      chargeTotal: money(chargeTotal),
      taxExclusive: money(taxExclusive),
      taxTotal: money(taxTotal),
      taxInclusive: money(taxInclusive),
      payable: money(taxInclusive),
      prepaid: '0.00',
      rounding: '0.00',
    },
  };
}
