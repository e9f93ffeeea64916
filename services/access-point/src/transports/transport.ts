/**
 * What the connector needs of an access point (issue #23), whatever carries the documents: submit an
 * issued e-invoice, follow a submitted one, say whether a participant is registered, and hand received
 * documents to the connector.
 */
import type { AccessPointTransport, DeliveryReason } from '@bm/contracts';

/** An issued e-invoice on its way out. */
export interface Outbound {
  companyId: string;
  invoiceId: string;
  attempt: number;
  /** The SBDH instance id: derived from the invoice id and the attempt (`transmissionId`). */
  transmissionId: string;
  /** Endpoint ids `scheme:identifier` (BT-34, BT-49). */
  senderId: string;
  receiverId: string;
  documentType: 'Invoice' | 'CreditNote';
  document: Buffer;
  /** When the e-invoice was issued (ISO 8601): SAPI-SK's `creationDateTime`, the same at every try. */
  issuedAt: string;
}

/**
 * Where a transmission stands: `pending` (the access point has it, not yet in the network), `sent`
 * (in the network, no Message Level Status yet), or a final status. `sent: true` on a final status says
 * it went through the network before (so `sent` is reported first).
 */
export type Outcome =
  | { status: 'pending' }
  /** `transmissionId`: the access point's own id of the document, when it gives one (SAPI-SK). */
  | { status: 'sent'; transmissionId?: string }
  | { status: 'delivered'; mls: 'AP' | 'AB' }
  | { status: 'rejected'; sent: boolean; reasons: DeliveryReason[] }
  | { status: 'failed'; reasons: DeliveryReason[] };

/**
 * The answer to a received document: stored (also when it was stored before: `duplicate`), with the inbox
 * record's status (issue #35: `needs-attention` is taken too, never refused back), or refused with a
 * reason (only a document for no company of this deployment, or one that is not a document at all).
 */
export type InboundResult =
  | {
      ok: true;
      duplicate: boolean;
      companyId: string;
      recordId: string;
      status: string;
      purchaseInvoiceId: string | null;
    }
  | { ok: false; status: 400 | 404 | 422; code: string; reason: string };

/** Books one received document (a Standard Business Document or a bare UBL). */
export type Receive = (bytes: Buffer, via: string) => Promise<InboundResult>;

export interface Transport {
  readonly name: AccessPointTransport;
  /** Submits a document the access point has never seen. Throws on a transient failure (retried). */
  submit(doc: Outbound): Promise<Outcome>;
  /** The state of a transmission, or `unknown` when the access point never saw it. */
  follow(doc: Outbound | { transmissionId: string }): Promise<Outcome | 'unknown'>;
  /** Whether a participant is registered through this access point (null: cannot tell). */
  registered(peppolId: string): Promise<boolean | null>;
  /** Starts taking received documents in; resolves to its stop. */
  startInbound(receive: Receive): Promise<() => Promise<void>>;
}
