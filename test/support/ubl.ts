/**
 * Hand-written Peppol BIS Billing 3.0 invoices for the receiving tests (issue #35): one line at one VAT
 * rate, every total worked in integer cents (no binary floating point), the parties as given.
 */
export interface UblParty {
  name: string;
  endpoint: string;
  vat: string | null;
  legalId: string | null;
}

export const SUPPLIER: UblParty = {
  name: 'Veľkoobchod Káva s.r.o.',
  endpoint: '0245:2021555555',
  vat: 'SK2021555555',
  legalId: '44555666',
};

const money = (cents: bigint) => {
  const neg = cents < 0n;
  const a = neg ? -cents : cents;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
};

function party(p: UblParty, role: 'AccountingSupplierParty' | 'AccountingCustomerParty') {
  const [scheme, id] = p.endpoint.split(':');
  return `<cac:${role}><cac:Party>
  <cbc:EndpointID schemeID="${scheme}">${id}</cbc:EndpointID>
  <cac:PartyName><cbc:Name>${p.name}</cbc:Name></cac:PartyName>
  <cac:PostalAddress><cbc:StreetName>Priemyselná 3</cbc:StreetName><cbc:CityName>Žilina</cbc:CityName><cbc:PostalZone>01001</cbc:PostalZone><cac:Country><cbc:IdentificationCode>SK</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
  ${p.vat ? `<cac:PartyTaxScheme><cbc:CompanyID>${p.vat}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ''}
  <cac:PartyLegalEntity><cbc:RegistrationName>${p.name}</cbc:RegistrationName>${p.legalId ? `<cbc:CompanyID>${p.legalId}</cbc:CompanyID>` : ''}</cac:PartyLegalEntity>
</cac:Party></cac:${role}>`;
}

/**
 * A one-line invoice `id` of `quantity` × `priceCents` at `rate` % from `seller` to `buyer`, issued on
 * `issueDate`. `breakTotals` states a line total one cent off (BR-CO-10 fails).
 */
export function invoiceXml(o: {
  id: string;
  buyer: UblParty;
  seller?: UblParty;
  quantity?: number;
  priceCents?: number;
  rate?: number;
  issueDate?: string;
  breakTotals?: boolean;
}): string {
  const quantity = BigInt(o.quantity ?? 3);
  const price = BigInt(o.priceCents ?? 1250);
  const rate = BigInt(o.rate ?? 23);
  const net = quantity * price;
  const vat = (net * rate + 50n) / 100n;
  const lineTotal = o.breakTotals ? net + 1n : net;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
<cbc:ID>${o.id}</cbc:ID>
<cbc:IssueDate>${o.issueDate ?? '2026-11-20'}</cbc:IssueDate>
<cbc:DueDate>2026-12-04</cbc:DueDate>
<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cbc:BuyerReference>OBJ-1</cbc:BuyerReference>
${party(o.seller ?? SUPPLIER, 'AccountingSupplierParty')}
${party(o.buyer, 'AccountingCustomerParty')}
<cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cbc:PaymentID>2026001</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>SK7511000000002620000000</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">${money(vat)}</cbc:TaxAmount>
<cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">${money(net)}</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">${money(vat)}</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>
<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">${money(lineTotal)}</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">${money(net)}</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">${money(net + vat)}</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">${money(net + vat)}</cbc:PayableAmount></cac:LegalMonetaryTotal>
<cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="H87">${quantity}</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">${money(net)}</cbc:LineExtensionAmount>
<cac:Item><cbc:Name>Káva Arabica 1 kg</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
<cac:Price><cbc:PriceAmount currencyID="EUR">${money(price)}</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
</Invoice>`;
}

/** The amount due of {@link invoiceXml}'s invoice, as the API writes it (`"46.13"`). */
export function payableOf(quantity = 3, priceCents = 1250, rate = 23): string {
  const net = BigInt(quantity) * BigInt(priceCents);
  return money(net + (net * BigInt(rate) + 50n) / 100n);
}
