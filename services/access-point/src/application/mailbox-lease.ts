/**
 * One connector replica at a time drains a company's mailbox (issue #43). SAPI-SK fetches and
 * acknowledges a document by its id alone, and a provider may list two senders' documents under one id:
 * two replicas draining one mailbox at once could then acknowledge the second document after each stored
 * the first. A lease per company in a JetStream key-value bucket (`access_point_leases`) closes that: a
 * replica drains a mailbox only while it holds the company's key, renews it (compare-and-set on the key's
 * revision) before every acknowledgement, and stops at once when another replica took it over. A lease not
 * renewed for `ttlMs` (a replica that died) may be taken over.
 */

import { LEASE_BUCKET } from '@bm/contracts';
import type { NatsConnection } from '@bm/messaging';
import { type KV, Kvm } from '@nats-io/kv';

/** A held lease: its key's revision, renewed by {@link MailboxLeases.renew}. */
export interface Lease {
  companyId: string;
  revision: number;
}

/** The lease was taken over by another replica: stop draining. */
export class LeaseLost extends Error {
  constructor(companyId: string) {
    super(`another connector replica took over the mailbox of company ${companyId}`);
    this.name = 'LeaseLost';
  }
}

export class MailboxLeases {
  private kv?: Promise<KV>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly replicas: number,
    readonly holder: string = crypto.randomUUID(),
    private readonly ttlMs = 120_000,
  ) {}

  /** The bucket, created on first use (or bound when it exists). */
  private bucket(): Promise<KV> {
    this.kv ??= new Kvm(this.nc).create(LEASE_BUCKET, { history: 1, replicas: this.replicas }).catch((e) => {
      this.kv = undefined;
      throw e;
    });
    return this.kv;
  }

  /** The company's lease for this replica, or null while another replica holds it. */
  async acquire(companyId: string): Promise<Lease | null> {
    const kv = await this.bucket();
    try {
      return { companyId, revision: await kv.create(companyId, this.holder) };
    } catch {
      /* the key exists: held, or a lease to take over */
    }
    const entry = await kv.get(companyId);
    if (!entry) return null;
    const mine = entry.operation === 'PUT' && entry.string() === this.holder;
    const free = entry.operation !== 'PUT' || Date.now() - entry.created.getTime() > this.ttlMs;
    if (!mine && !free) return null;
    try {
      return { companyId, revision: await kv.update(companyId, this.holder, entry.revision) };
    } catch {
      return null;
    }
  }

  /** Renews `lease` (its revision moves on). @throws LeaseLost when another replica took it over */
  async renew(lease: Lease): Promise<void> {
    const kv = await this.bucket();
    try {
      lease.revision = await kv.update(lease.companyId, this.holder, lease.revision);
    } catch {
      throw new LeaseLost(lease.companyId);
    }
  }

  /** Gives `lease` up (best effort: a lease not renewed expires by itself). */
  async release(lease: Lease): Promise<void> {
    const kv = await this.bucket().catch(() => null);
    await kv?.delete(lease.companyId, { previousSeq: lease.revision }).catch(() => undefined);
  }
}
