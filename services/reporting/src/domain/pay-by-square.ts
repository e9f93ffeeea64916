/**
 * PAY by square (the Slovak Banking Association's QR payment standard, DESIGN §7) for an invoice,
 * encoded with the `bysquare` package. Only for an IBAN, a positive unpaid amount in a currency.
 */
import { encode, PaymentOptions } from 'bysquare/pay';
import type { InvoicePrint } from './print-model.js';

/** The QR payload of an invoice, or null when it cannot be paid by transfer (no IBAN, nothing to pay). */
export function payBySquare(p: InvoicePrint): string | null {
  if (!p.iban || p.balance.startsWith('-') || /^0+(\.0+)?$/.test(p.balance)) return null;
  const digits = (s: string | null, max: number) => (s && /^\d+$/.test(s) ? s.slice(0, max) : undefined);
  return encode({
    payments: [
      {
        type: PaymentOptions.PaymentOrder,
        // bysquare takes the amount as a JS number; a 2-decimal amount under 10^13 converts exactly.
        amount: Number(p.balance),
        currencyCode: p.currency,
        variableSymbol: digits(p.symbolVariable, 10),
        constantSymbol: digits(p.symbolConstant, 4),
        specificSymbol: digits(p.symbolSpecific, 10),
        paymentDueDate: p.dateValidTo ? p.dateValidTo.replace(/-/g, '') : undefined,
        paymentNote: `Faktura ${p.recordNumber}`.slice(0, 140),
        bankAccounts: [{ iban: p.iban, ...(p.bic ? { bic: p.bic } : {}) }],
        beneficiary: { name: p.supplier.name.slice(0, 70) },
      },
    ],
  });
}
