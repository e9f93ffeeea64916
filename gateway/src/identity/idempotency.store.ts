/**
 * Persistence of `Idempotency-Key`s (issue #12; IETF draft-ietf-httpapi-idempotency-key-header): one row
 * per company and key in `identity.idempotency_key`. Claiming a key is one `insert … on conflict` so
 * that of any number of concurrent requests with one key exactly one runs.
 */
import type { MikroORM } from '@bm/service-kit';
import { SCHEMA } from './entities.js';

/** How long a key and its stored answer are kept, ms (24 h). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;

/** A stored answer, replayed to a repeat of the request. */
export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** The outcome of {@link IdempotencyStore.claim}. */
export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in-flight'; retryAfterSeconds: number }
  | { kind: 'mismatch' }
  | { kind: 'done'; answer: StoredAnswer };

const T = `"${SCHEMA}"."idempotency_key"`;

export class IdempotencyStore {
  constructor(private readonly orm: MikroORM) {}

  private get db() {
    return this.orm.em.getConnection();
  }

  /**
   * Claims `key` for a request with `fingerprint` for `leaseMs`. A key older than 24 h, or one whose
   * lease ran out without an answer (the request is known to have been abandoned at its deadline), is
   * taken over.
   */
  async claim(companyId: string, key: string, fingerprint: string, leaseMs: number): Promise<Claim> {
    const taken = await this.db.execute<{ key: string }[]>(
      `insert into ${T} as k ("company_id", "key", "fingerprint", "state", "locked_until", "created_at")
         values (?, ?, ?, 'in_flight', now() + make_interval(secs => ?), now())
       on conflict ("company_id", "key") do update
         set "fingerprint" = excluded."fingerprint", "state" = 'in_flight', "locked_until" = excluded."locked_until",
             "status" = null, "content_type" = null, "body" = null, "created_at" = now()
         where k."created_at" < now() - make_interval(secs => ?)
            or (k."state" = 'in_flight' and k."locked_until" < now())
       returning "key"`,
      [companyId, key, fingerprint, leaseMs / 1000, IDEMPOTENCY_RETENTION_MS / 1000],
    );
    if (taken.length) return { kind: 'claimed' };
    const [row] = await this.db.execute<
      {
        fingerprint: string;
        state: string;
        status: number | null;
        content_type: string | null;
        body: string | null;
        wait_s: number;
      }[]
    >(
      `select "fingerprint", "state", "status", "content_type", "body",
              greatest(ceil(extract(epoch from "locked_until" - now())), 1)::int as wait_s
         from ${T} where "company_id" = ? and "key" = ?`,
      [companyId, key],
    );
    // Released between the two statements: the caller may try again at once.
    if (!row) return { kind: 'in-flight', retryAfterSeconds: 1 };
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (row.state === 'done')
      return {
        kind: 'done',
        answer: { status: row.status ?? 200, contentType: row.content_type, body: row.body ?? '' },
      };
    return { kind: 'in-flight', retryAfterSeconds: row.wait_s };
  }

  /** Stores the answer of a claimed key; repeats within 24 h get it. */
  async complete(companyId: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db.execute(
      `update ${T} set "state" = 'done', "status" = ?, "content_type" = ?, "body" = ? where "company_id" = ? and "key" = ?`,
      [answer.status, answer.contentType, answer.body, companyId, key],
    );
  }

  /** Releases a claimed key whose request stored nothing, so a retry runs again. */
  async release(companyId: string, key: string): Promise<void> {
    await this.db.execute(`delete from ${T} where "company_id" = ? and "key" = ? and "state" = 'in_flight'`, [
      companyId,
      key,
    ]);
  }

  /** Deletes keys older than 24 h; resolves to how many. */
  async prune(): Promise<number> {
    const r = await this.db.execute(
      `delete from ${T} where "created_at" < now() - make_interval(secs => ?)`,
      [IDEMPOTENCY_RETENTION_MS / 1000],
      'run',
    );
    return Number((r as { affectedRows?: number }).affectedRows ?? 0);
  }
}
