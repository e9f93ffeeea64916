/**
 * The inbox of received e-invoices and each company's access-point settings (issue #35; DESIGN §6a
 * "Received means kept", "Each company chooses its own certified provider").
 */
import { companyFilter, tenantColumns } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { SCHEMA } from './schema.js';

/**
 * One received document, stored before it is booked: the bytes as delivered, their SHA-256, where it came
 * from, what could be read of it, and its status (`received`, `booked`, `needs-attention`, `duplicate`).
 * A company holds a document once: unique by its bytes (issue #43: not by the provider's id, which may be
 * the sender's own number and repeat across senders). `bookingAttempts` counts bookings that failed for
 * another reason than a refusal. These bytes are the only copy: the purchase invoice's archive row refers
 * to this record (`e_invoice_document.received_id`).
 */
export const ReceivedEInvoiceEntity = defineEntity({
  name: 'ReceivedEInvoice',
  tableName: 'received_e_invoice',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    receivedAt: p.datetime(),
    channel: p.string().length(12),
    providerDocumentId: p.string().length(200).nullable(),
    bytes: p.blob(),
    sha256: p.string().length(64),
    senderId: p.string().length(200).nullable(),
    receiverId: p.string().length(200).nullable(),
    senderName: p.string().nullable(),
    invoiceNumber: p.string().length(200).nullable(),
    issueDate: p.string().length(10).nullable(),
    documentType: p.string().length(12).nullable(),
    total: p.decimal('string').precision(18).scale(2).nullable(),
    currency: p.string().length(3).nullable(),
    status: p.string().length(20),
    purchaseInvoiceId: p.uuid().nullable(),
    problems: p.json<{ rule: string; field: string | null; message: string }[]>(),
    bookingAttempts: p.integer().default(0),
    updatedAt: p.datetime(),
  },
  uniques: [{ properties: ['companyId', 'sha256'] }],
  indexes: [
    { properties: ['companyId', 'status', 'receivedAt'] },
    { properties: ['companyId', 'channel', 'providerDocumentId'] },
  ],
});

/** A company's access point: `default` or its own SAPI-SK provider; the secret only as ciphertext. */
export const AccessPointSettingsEntity = defineEntity({
  name: 'AccessPointSettings',
  tableName: 'access_point_settings',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    companyId: p.uuid().primary(),
    transport: p.string().length(10),
    url: p.string().length(500).nullable(),
    clientId: p.string().length(200).nullable(),
    scope: p.string().length(500).nullable(),
    secretCiphertext: p.text().nullable(),
    lastContactAt: p.datetime().nullable(),
    lastError: p.text().nullable(),
    lastErrorAt: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});
