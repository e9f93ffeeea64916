/** Peppol ids and envelopes (issue #23): derived transmission ids, routing, the UBL out of an SBD byte for byte. */
import { describe, expect, it } from 'vitest';
import {
  countryOfEndpoint,
  endpointOf,
  openSbd,
  participantId,
  receiverOfUbl,
  transmissionId,
} from './peppol.js';

const UBL = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>FA-1 „č“</cbc:ID><cac:AccountingCustomerParty><cac:Party><cbc:EndpointID schemeID="0245">2020123456</cbc:EndpointID></cac:Party></cac:AccountingCustomerParty></Invoice>`;
const sbd = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sh:StandardBusinessDocument xmlns:sh="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><sh:StandardBusinessDocumentHeader><sh:HeaderVersion>1.0</sh:HeaderVersion><sh:Receiver><sh:Identifier Authority="iso6523-actorid-upis">0245:2020999999</sh:Identifier></sh:Receiver><sh:DocumentIdentification><sh:InstanceIdentifier>abc-1</sh:InstanceIdentifier></sh:DocumentIdentification></sh:StandardBusinessDocumentHeader>\n  ${inner}\n</sh:StandardBusinessDocument>\n`;

describe('Peppol identifiers', () => {
  it('derives one transmission id per invoice and attempt, as a UUID', () => {
    const id = transmissionId('13992943-FB2B-4073-bd75-bd37548fc54a', 1);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(transmissionId('13992943-fb2b-4073-bd75-bd37548fc54a', 1)).toBe(id);
    expect(transmissionId('13992943-fb2b-4073-bd75-bd37548fc54a', 2)).not.toBe(id);
  });

  it('writes and reads participant ids; the C1 country of a Slovak endpoint', () => {
    expect(participantId('0245:2020123456')).toBe('iso6523-actorid-upis::0245:2020123456');
    expect(endpointOf('iso6523-actorid-upis::0245:2020123456')).toBe('0245:2020123456');
    expect([countryOfEndpoint('0245:2020123456'), countryOfEndpoint('9930:DE123456789')]).toEqual([
      'SK',
      'DE',
    ]);
  });
});

describe('received documents', () => {
  it('routes a bare UBL by its buyer endpoint (BT-49)', () => {
    expect(receiverOfUbl(Buffer.from(UBL))).toBe('0245:2020123456');
    expect(openSbd(Buffer.from(UBL))).toMatchObject({ receiver: '0245:2020123456', instanceId: null });
  });

  it('takes the UBL out of an SBD without changing a byte (multi-byte characters too), routed by the SBDH receiver', () => {
    const opened = openSbd(Buffer.from(sbd(UBL)));
    expect(opened.receiver).toBe('0245:2020999999');
    expect(opened.instanceId).toBe('abc-1');
    expect(opened.ubl.equals(Buffer.from(UBL))).toBe(true);
  });

  it('refuses DTDs and an SBD without a business document', () => {
    expect(() => openSbd(Buffer.from(`<!DOCTYPE x [<!ENTITY a "b">]>${UBL}`))).toThrow(/DTD/);
    expect(() => openSbd(Buffer.from(sbd('')))).toThrow(/no business document/);
  });
});
