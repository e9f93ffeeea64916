/**
 * Every request/reply contract of the system, collected from the contract modules themselves (issue #14:
 * the AsyncAPI document is generated from the same zod contracts as the OpenAPI document, with no
 * hand-kept list). A contract is any exported value with `subject`, `request` and `reply`, also one level
 * down (the four contracts of a master-data resource).
 */
import * as accessPoint from './access-point/participants.contract.js';
import * as accessPointSettings from './access-point/settings.contract.js';
import * as common from './common.contract.js';
import { provisionCompany } from './common.contract.js';
import type { Contract } from './contract.js';
import * as bank from './invoicing/bank.contract.js';
import * as eInvoiceDelivery from './invoicing/e-invoice-delivery.contract.js';
import * as eInvoices from './invoicing/e-invoices.contract.js';
import * as inbox from './invoicing/inbox.contract.js';
import * as invoices from './invoicing/invoices.contract.js';
import * as invoicingLookups from './invoicing/lookups.contract.js';
import * as invoicingMasterData from './invoicing/master-data.contract.js';
import * as purchaseInvoices from './invoicing/purchase-invoices.contract.js';
import * as salesInvoiceList from './invoicing/sales-invoice-list.contract.js';
import * as vatFilings from './invoicing/vat-filings.contract.js';
import * as printouts from './reporting/printout.contract.js';
import * as reports from './reporting/reports.contract.js';
import * as issueCards from './warehouse/issue-cards.contract.js';
import * as warehouseMasterData from './warehouse/master-data.contract.js';
import * as receiptCards from './warehouse/receipt-cards.contract.js';
import * as stock from './warehouse/stock.contract.js';
import * as storno from './warehouse/storno.contract.js';

const modules = [
  accessPoint,
  accessPointSettings,
  common,
  bank,
  eInvoiceDelivery,
  eInvoices,
  inbox,
  invoices,
  invoicingLookups,
  invoicingMasterData,
  purchaseInvoices,
  salesInvoiceList,
  vatFilings,
  printouts,
  reports,
  issueCards,
  receiptCards,
  stock,
  storno,
  warehouseMasterData,
];

const isContract = (v: unknown): v is Contract =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as Contract).subject === 'string' &&
  !!(v as Contract).request &&
  !!(v as Contract).reply;

/** The service that serves a subject: its first token (`warehouse.items.create` → `warehouse`). */
export const ownerOf = (subject: string): string => subject.split('.')[0];

let all: readonly Contract[] | undefined;

/** Every request/reply contract, one per subject, sorted by subject. */
export function requestContracts(): readonly Contract[] {
  if (all) return all;
  const bySubject = new Map<string, Contract>();
  const add = (v: unknown) => {
    if (isContract(v) && !bySubject.has(v.subject)) bySubject.set(v.subject, v);
  };
  // Provisioning is one contract per service, made by a function.
  for (const service of ['warehouse', 'invoicing', 'reporting'] as const) add(provisionCompany(service));
  for (const m of modules)
    for (const v of Object.values(m)) {
      add(v);
      if (v && typeof v === 'object' && !isContract(v)) Object.values(v).forEach(add);
    }
  all = Object.freeze([...bySubject.values()].sort((a, b) => a.subject.localeCompare(b.subject)));
  return all;
}
