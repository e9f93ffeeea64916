/**
 * The outbox table's statements (DESIGN §1 "Events"; issue #24: one statement per round): claim the next
 * events while marking those the round before published, count a refused event, release a claim.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { pgArray } from '../set-insert.js';

/**
 * How long a relay's claim on the events it is publishing lasts: another replica (or this one after a
 * restart) takes them over after it. Far above a publish's acknowledgement timeout (2 s).
 */
export const CLAIM_SECONDS = 15;

/** An event as claimed from `<schema>.outbox`. */
export interface OutboxRow {
  id: string;
  company_id: string;
  subject: string;
  payload: unknown;
  trace_parent: string | null;
}

/** The statements on one schema's outbox table. */
export class OutboxTable {
  private readonly table: string;
  /** Marks the events of an array parameter published (and unclaimed). */
  private readonly markSql: string;

  constructor(
    private readonly orm: MikroORM,
    schema: string,
  ) {
    this.table = `"${schema}"."outbox"`;
    this.markSql = `update ${this.table} set "published_at" = now(), "claimed_until" = null where "id" = any(?::uuid[])`;
  }

  private db() {
    return this.orm.em.getConnection();
  }

  /**
   * In ONE statement: marks `published` (the round before's events) and claims the next `batch`
   * unpublished ones for {@link CLAIM_SECONDS} (`for update skip locked`, so another replica skips them).
   * Returns them least-tried first, then as written (`returning` keeps no order).
   */
  async claim(published: string[], batch: number): Promise<OutboxRow[]> {
    const marking = pgArray(published);
    const t = this.table;
    const claimed = await this.db().execute<(OutboxRow & { attempts: number; created_at: Date | string })[]>(
      `with "done" as (${this.markSql}), "next" as (
         select "id" from ${t}
          where "published_at" is null and ("claimed_until" is null or "claimed_until" < now())
            and not ("id" = any(?::uuid[]))
          order by "attempts", "created_at" limit ? for update skip locked
       )
       update ${t} o set "claimed_until" = now() + make_interval(secs => ?) from "next"
        where o."id" = "next"."id"
       returning o."id", o."company_id", o."subject", o."payload", o."trace_parent", o."attempts", o."created_at"`,
      [marking, marking, batch, CLAIM_SECONDS],
    );
    return claimed.sort(
      (x, y) =>
        x.attempts - y.attempts || new Date(x.created_at).getTime() - new Date(y.created_at).getTime(),
    );
  }

  /** Marks `ids` published without claiming more (a paused or closed relay's last marks). */
  async markPublished(ids: string[]): Promise<void> {
    await this.db().execute(this.markSql, [pgArray(ids)]);
  }

  /** Counts a refusal on each event (`attempts`, `last_error`) and releases it for the next round. */
  async recordRefused(failed: { id: string; error: string }[]): Promise<void> {
    await this.db().execute(
      `update ${this.table} set "attempts" = "attempts" + 1, "last_error" = f."error", "claimed_until" = null
         from unnest(?::uuid[], ?::text[]) as f("id", "error") where ${this.table}."id" = f."id"`,
      [pgArray(failed.map((f) => f.id)), pgArray(failed.map((f) => f.error))],
    );
  }

  /** Releases the claim on `ids` (not sent: NATS unreachable), so the next round takes them at once. */
  async release(ids: string[]): Promise<void> {
    await this.db().execute(`update ${this.table} set "claimed_until" = null where "id" = any(?::uuid[])`, [
      pgArray(ids),
    ]);
  }
}
