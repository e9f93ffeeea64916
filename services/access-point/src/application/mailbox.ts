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
 *
 * Issue #43: a document is identified by its bytes, not by the provider's id (which may be the sender's
 * own number, so two suppliers' documents can share it); a fetched `checksum` is verified; a listing
 * answer of an unknown shape or a page token that repeats is an error shown in the company's settings,
 * never an empty mailbox.
 */
import { createHash } from 'node:crypto';
import { listAccessPointSettings, type StoredAccessPointSettings } from '@bm/contracts';
import type { Logger } from '@bm/logger';
import { type NatsConnection, request } from '@bm/messaging';
import type { ListedDocument } from '../transports/sapi/answers.js';
import { SapiClient } from '../transports/sapi/client.js';
import { SapiError } from '../transports/sapi/errors.js';
import type { CompanyAccess } from './company-access.js';
import { receiveDocument } from './inbound.js';
import { type Lease, LeaseLost, type MailboxLeases } from './mailbox-lease.js';

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

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Pages of one listing at most (100 documents each): a provider that pages for ever is an error. */
const MAX_PAGES = 1000;
/** Fetches of a document whose bytes do not match the provider's checksum before they are kept as they are. */
const CHECKSUM_TRIES = 3;

/**
 * Every document listed in `participant`'s mailbox, following `nextPageToken` to the end. Items are not
 * merged by `documentId`: a provider may list two senders' documents under one id (issue #43).
 * @throws SapiError `UNRECOGNISED` when a page token comes back a second time (a loop, not a mailbox)
 */
async function listAll(client: SapiClient, participant: string): Promise<ListedDocument[]> {
  const all: ListedDocument[] = [];
  const tokens = new Set<string>();
  let token: string | null = null;
  for (let pages = 0; ; pages++) {
    const page = await client.list(participant, token);
    all.push(...page.documents);
    token = page.nextPageToken;
    if (!token) return all;
    if (tokens.has(token) || pages >= MAX_PAGES)
      throw new SapiError(
        200,
        'UNRECOGNISED',
        'PAGE-TOKEN-LOOP',
        `the provider's mailbox listing gave the page token ${token.slice(0, 80)} twice: listing stopped`,
        true,
      );
    tokens.add(token);
  }
}

/**
 * The bytes of listed document `d`, checked against the provider's `checksum` where it sends one: a
 * mismatch is fetched again, and one that persists is kept with the problem `ChecksumMismatch` (kept,
 * never dropped).
 */
async function fetchChecked(client: SapiClient, participant: string, d: ListedDocument) {
  for (let tries = 1; ; tries++) {
    const full = await client.fetchDocument(participant, d.documentId);
    const bytes = bytesOf(full.payload, full.encoding);
    const meta: Record<string, unknown> = { ...(d.metadata ?? {}), ...(full.metadata ?? {}) };
    const expected =
      full.checksum
        ?.trim()
        .toLowerCase()
        .replace(/^sha-?256:/, '') ?? null;
    const actual = sha256(bytes);
    if (!expected || expected === actual) return { bytes, meta, problem: null };
    if (tries >= CHECKSUM_TRIES)
      return {
        bytes,
        meta,
        problem: {
          rule: 'ChecksumMismatch',
          message: `checksum mismatch: the provider's checksum ${expected.slice(0, 64)} is not the SHA-256 ${actual} of the bytes it delivered (fetched ${tries}×)`,
        },
      };
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/**
 * One pass over one company's mailbox: each listed document fetched, stored, and acknowledged only after
 * the store's reply (its record committed). Rejects when the mailbox cannot be listed, and on refused
 * credentials (the rest of the pass would be refused too).
 */
export async function drainMailbox(
  nc: NatsConnection,
  client: SapiClient,
  companyId: string,
  participant: string,
  log: Logger,
  stopped: () => boolean = () => false,
  /** Called before each acknowledgement: renews the mailbox's lease (throws LeaseLost when taken over). */
  beforeAck: () => Promise<void> = async () => {},
): Promise<MailboxPass> {
  const docs = await listAll(client, participant);
  const pass: MailboxPass = { listed: docs.length, stored: 0, acknowledged: 0, failed: 0 };
  for (const d of docs) {
    if (stopped()) break;
    try {
      const got = await fetchChecked(client, participant, d);
      const r = await receiveDocument(nc, got.bytes, 'sapi', {
        companyId,
        providerDocumentId: d.documentId,
        senderId: text(got.meta.senderParticipantId),
        receiverId: text(got.meta.receiverParticipantId) ?? participant,
        problem: got.problem,
      });
      if (!r.ok) throw new Error(r.reason);
      if (!r.duplicate) pass.stored++;
      // Only now: the record is committed, and this replica still drains the mailbox alone.
      await beforeAck();
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
      if ((e instanceof SapiError && e.category === 'AUTH') || e instanceof LeaseLost) throw e;
      log.warn(
        { companyId, providerDocumentId: d.documentId, err: (e as Error).message },
        'received document not taken; retried at the next poll',
      );
    }
  }
  return pass;
}

/** Runs `work` over `items` with at most `limit` at once. */
async function pooled<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Starts polling every SAPI-SK mailbox; resolves to its stop (which waits for the pass under way).
 * Companies are polled `concurrency` at a time, each with its own back-off after a failed pass (doubled
 * per failure up to `maxBackoffMs`), so one slow or broken provider does not delay the others; held
 * credentials (holds.ts) are skipped without a call.
 */
export function startMailboxPolling(deps: {
  nc: NatsConnection;
  access: CompanyAccess;
  log: Logger;
  pollMs: number;
  timeoutMs: number;
  includeDefault: boolean;
  concurrency?: number;
  maxBackoffMs?: number;
  /** One replica at a time per mailbox (mailbox-lease.ts). */
  leases: MailboxLeases;
}): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const backoff = new Map<string, { failures: number; nextAt: number }>();
  const pollOne = async (s: StoredAccessPointSettings) => {
    if (stopped || !s.participantId) return;
    const wait = backoff.get(s.companyId);
    if (wait && wait.nextAt > Date.now()) return;
    let lease: Lease | null = null;
    try {
      const creds = deps.access.credentialsOf(s);
      if (!creds) return;
      // Another replica drains this mailbox now: it is its turn, not ours.
      lease = await deps.leases.acquire(s.companyId);
      if (!lease) return;
      const held = lease;
      const client = new SapiClient(creds, deps.timeoutMs);
      const p = await drainMailbox(
        deps.nc,
        client,
        s.companyId,
        s.participantId,
        deps.log,
        () => stopped,
        () => deps.leases.renew(held),
      );
      if (p.listed) deps.log.info({ companyId: s.companyId, ...p }, 'mailbox polled');
      backoff.delete(s.companyId);
      await deps.access.succeeded(s.companyId, s);
    } catch (e) {
      // A call its credentials' hold refused touched no network, and a lease taken over is another
      // replica's turn: nothing to report.
      if ((e instanceof SapiError && e.held) || e instanceof LeaseLost) return;
      const failures = (wait?.failures ?? 0) + 1;
      const delay = Math.min(deps.pollMs * 2 ** (failures - 1), deps.maxBackoffMs ?? 15 * 60_000);
      backoff.set(s.companyId, { failures, nextAt: Date.now() + delay });
      deps.log.warn(
        { companyId: s.companyId, err: (e as Error).message, nextPollInMs: delay },
        'mailbox poll failed',
      );
      await deps.access.failed(s.companyId, s, e as Error, 'poll');
    } finally {
      if (lease) await deps.leases.release(lease);
    }
  };
  const pass = async () => {
    const { items } = await request(
      deps.nc,
      listAccessPointSettings,
      { includeDefault: deps.includeDefault },
      { requestId: crypto.randomUUID() },
    );
    await pooled(items, deps.concurrency ?? 8, pollOne);
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
