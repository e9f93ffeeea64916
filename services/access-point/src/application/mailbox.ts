/**
 * Receiving over SAPI-SK (issue #35): every `SAPI_POLL_MS` the mailbox of each company on SAPI-SK (its
 * own provider, or the default one when `PEPPOL_AP=sapi`) is listed to the end (`nextPageToken`), each
 * document fetched and **stored before anything else** (invoicing's inbox), and acknowledged only after
 * the store's reply, i.e. after its record is committed. A document whose store fails stays unacknowledged
 * and is listed again next time. Two connector replicas polling one mailbox store a document once (the
 * inbox's unique keys) and acknowledge it twice (idempotent at the provider).
 *
 * The listing is read whole before any document is acknowledged, so page tokens are not disturbed by the
 * documents leaving the list.
 */
import { listAccessPointSettings } from '@bm/contracts';
import type { Logger } from '@bm/logger';
import { type NatsConnection, request } from '@bm/messaging';
import { SapiClient } from '../transports/sapi/client.js';
import type { CompanyAccess } from './company-access.js';
import { receiveDocument } from './inbound.js';

/** What one pass over a mailbox did. */
export interface MailboxPass {
  listed: number;
  stored: number;
  acknowledged: number;
  failed: number;
}

/** Decodes a fetched payload: the XML string as UTF-8 bytes, or base64 where the provider says so. */
const bytesOf = (payload: string, encoding: string | null) =>
  encoding && /base64/i.test(encoding) ? Buffer.from(payload, 'base64') : Buffer.from(payload, 'utf8');

/** Every document listed in `participant`'s mailbox, following `nextPageToken` to the end. */
async function listAll(client: SapiClient, participant: string) {
  const all: { documentId: string; metadata: Record<string, any> | null }[] = [];
  let token: string | null = null;
  const seen = new Set<string>();
  do {
    const page = await client.list(participant, token);
    for (const d of page.documents) {
      if (seen.has(d.documentId)) continue;
      seen.add(d.documentId);
      all.push(d);
    }
    token = page.nextPageToken;
  } while (token);
  return all;
}

/** One pass over one company's mailbox. Rejects when the mailbox cannot be listed. */
export async function drainMailbox(
  nc: NatsConnection,
  client: SapiClient,
  companyId: string,
  participant: string,
  log: Logger,
  stopped: () => boolean = () => false,
): Promise<MailboxPass> {
  const docs = await listAll(client, participant);
  const pass: MailboxPass = { listed: docs.length, stored: 0, acknowledged: 0, failed: 0 };
  for (const d of docs) {
    if (stopped()) break;
    try {
      const full = await client.fetchDocument(participant, d.documentId);
      const meta = { ...(d.metadata ?? {}), ...(full.metadata ?? {}) };
      const r = await receiveDocument(nc, bytesOf(full.payload, full.encoding), 'sapi', {
        companyId,
        providerDocumentId: d.documentId,
        senderId: typeof meta.senderParticipantId === 'string' ? meta.senderParticipantId : null,
        receiverId: typeof meta.receiverParticipantId === 'string' ? meta.receiverParticipantId : participant,
      });
      if (!r.ok) throw new Error(r.reason);
      if (!r.duplicate) pass.stored++;
      // Only now: the record is committed.
      await client.acknowledge(participant, d.documentId);
      pass.acknowledged++;
      log.info(
        {
          companyId,
          providerDocumentId: d.documentId,
          recordId: r.recordId,
          status: r.status,
          duplicate: r.duplicate,
        },
        'received document stored and acknowledged',
      );
    } catch (e) {
      pass.failed++;
      log.warn(
        { companyId, providerDocumentId: d.documentId, err: (e as Error).message },
        'received document not taken; retried at the next poll',
      );
    }
  }
  return pass;
}

/** Starts polling every SAPI-SK mailbox; resolves to its stop (which waits for the pass under way). */
export function startMailboxPolling(deps: {
  nc: NatsConnection;
  access: CompanyAccess;
  log: Logger;
  pollMs: number;
  timeoutMs: number;
  includeDefault: boolean;
}): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    const { items } = await request(
      deps.nc,
      listAccessPointSettings,
      { includeDefault: deps.includeDefault },
      { requestId: crypto.randomUUID() },
    );
    for (const s of items) {
      if (stopped) return;
      if (!s.participantId) continue;
      try {
        const creds = deps.access.credentialsOf(s);
        if (!creds) continue;
        const client = new SapiClient(creds, deps.timeoutMs);
        const p = await drainMailbox(deps.nc, client, s.companyId, s.participantId, deps.log, () => stopped);
        if (p.listed) deps.log.info({ companyId: s.companyId, ...p }, 'mailbox polled');
        if (s.transport === 'sapi') await deps.access.report(s.companyId, null, s.version);
      } catch (e) {
        deps.log.warn({ companyId: s.companyId, err: (e as Error).message }, 'mailbox poll failed');
        if (s.transport === 'sapi') await deps.access.report(s.companyId, (e as Error).message, s.version);
      }
    }
  };
  // The next pass starts `pollMs` after the last one ended, so passes never pile up.
  let timer: NodeJS.Timeout | undefined;
  const loop = () => {
    running = pass()
      .catch((e: Error) => deps.log.warn({ err: e.message }, 'mailbox poll failed'))
      .then(() => {
        if (!stopped) timer = setTimeout(loop, deps.pollMs);
      });
  };
  loop();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
