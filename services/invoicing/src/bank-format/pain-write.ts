/**
 * Writes a SEPA credit transfer order, ISO 20022 `pain.001.001.03` (CustomerCreditTransferInitiation), as
 * every Slovak bank's internet banking imports it (issue #45; DESIGN §6d). Pure; built with
 * fast-xml-parser's XMLBuilder (escaping by the library, never by concatenation).
 *
 * One payment information block (`PmtInf`, method TRF, service level SEPA, charges SLEV) per order: the
 * debtor's account by IBAN (BIC optional: `NOTPROVIDED` when not known, as the EPC's implementation
 * guidelines allow since 2016), one `CdtTrfTxInf` per invoice with the symbols in `EndToEndId`
 * (`/VS…/SS…/KS…`, Slovak Banking Association) and the supplier's invoice number in `RmtInf/Ustrd`.
 * Names and texts are transliterated to the SEPA Latin character set (č → c) and cut to their lengths.
 */
import { dec } from '@bm/money';
import { XMLBuilder } from 'fast-xml-parser';

export const PAIN_NS = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03';

/** One credit transfer: `amount` positive, 2 decimals, EUR. */
export interface CreditTransfer {
  endToEndId: string;
  amount: string;
  creditorName: string;
  creditorIban: string;
  remittance: string;
}

export interface PaymentOrderDocument {
  messageId: string;
  /** ISO date-time of creation. */
  createdAt: string;
  executionDate: string;
  debtorName: string;
  debtorIban: string;
  debtorBic: string | null;
  transfers: CreditTransfer[];
  total: string;
}

/**
 * The SEPA character set (EPC217-08): a–z A–Z 0–9 / - ? : ( ) . , ' + and space. Letters with diacritics
 * lose them (NFD), anything else becomes a space; `max` is the element's length.
 */
export function sepaText(text: string, max: number): string {
  const plain = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßẞ]/g, 'ss')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.slice(0, max).trim() || '-';
}

/** An amount as banks expect it: two decimals (`150.00`). */
const money2 = (v: string) => dec(v).toFixed(2);

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  suppressEmptyNode: true,
});

/** The order's XML (UTF-8 text). */
export function writePain001(d: PaymentOrderDocument): string {
  const doc = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    Document: {
      '@_xmlns': PAIN_NS,
      CstmrCdtTrfInitn: {
        GrpHdr: {
          MsgId: d.messageId,
          CreDtTm: d.createdAt.slice(0, 19),
          NbOfTxs: String(d.transfers.length),
          CtrlSum: money2(d.total),
          InitgPty: { Nm: sepaText(d.debtorName, 70) },
        },
        PmtInf: {
          PmtInfId: d.messageId,
          PmtMtd: 'TRF',
          BtchBookg: 'false',
          NbOfTxs: String(d.transfers.length),
          CtrlSum: money2(d.total),
          PmtTpInf: { SvcLvl: { Cd: 'SEPA' } },
          ReqdExctnDt: d.executionDate,
          Dbtr: { Nm: sepaText(d.debtorName, 70) },
          DbtrAcct: { Id: { IBAN: d.debtorIban }, Ccy: 'EUR' },
          DbtrAgt: { FinInstnId: d.debtorBic ? { BIC: d.debtorBic } : { Othr: { Id: 'NOTPROVIDED' } } },
          ChrgBr: 'SLEV',
          CdtTrfTxInf: d.transfers.map((t) => ({
            PmtId: { EndToEndId: t.endToEndId },
            Amt: { InstdAmt: { '@_Ccy': 'EUR', '#text': money2(t.amount) } },
            Cdtr: { Nm: sepaText(t.creditorName, 70) },
            CdtrAcct: { Id: { IBAN: t.creditorIban } },
            RmtInf: { Ustrd: sepaText(t.remittance, 140) },
          })),
        },
      },
    },
  };
  return builder.build(doc) as string;
}
