/**
 * Prepared statements for the statements a process runs again and again (issue #24 "the hot statements
 * as prepared statements with bind parameters"). The ORM and its query builder send every statement as
 * an unnamed one, so PostgreSQL parses and plans it anew each time; for the write path's statements
 * (the balance lock, the ledger write, the counter, the set insert) that was a large share of the
 * database's CPU per document.
 *
 * pg prepares a statement once per connection when the query carries a `name`. The services' pools use
 * {@link PipelinedClient}, which gives a name to a parameterised statement text the second time the
 * process sends it: a text seen once (a one-off
 * report, a list with an unusual number of ids) stays unnamed, and at most {@link MAX_NAMED} texts are
 * named per process, so the server's memory per connection stays bounded. Statements without
 * parameters (`begin`, `savepoint`, `commit`) are left alone. PostgreSQL replans a prepared statement
 * by itself when a table it uses changes (migrations).
 *
 * The same client lets a transaction's `begin` carry statements of its own: the request deadline's
 * `set_config` ({@link setBeginSuffix}) goes with it in one round trip instead of a second one (issue
 * #24), and a group commit's opening statements ({@link PipelinedClient.beginWith}) right behind it; and
 * it sends statements back to back in one write without waiting between them
 * ({@link PipelinedClient.sendAll}, pg's `pipeline` mode, which `initOrm` turns on).
 */
import pg from 'pg';

/** Most statement texts named per process (each is prepared once on each connection that runs it). */
export const MAX_NAMED = 2000;
/** Texts seen but not yet named, remembered up to this many. */
const MAX_SEEN = 20_000;

const named = new Map<string, string>();
const seen = new Set<string>();
/** SQL sent with every `begin` in the same simple query, when the function returns some. */
let beginSuffix: () => string | undefined = () => undefined;

/**
 * Sets what travels with each transaction's `begin` (called with the caller's async context, e.g. its
 * request's deadline). The text is sent as is in a simple query: it must hold no client data.
 */
export function setBeginSuffix(fn: () => string | undefined): void {
  beginSuffix = fn;
}

/** A statement as the driver takes it: `$n` placeholders (bound-query.ts `numberPlaceholders`) and values. */
export interface DriverStatement {
  text: string;
  values: readonly unknown[];
}

type Answer = { rows: unknown[]; command?: string };
/** pg's `query` of a client. */
type Query = (...args: unknown[]) => unknown;

/**
 * The pg client of the services' pools (orm.ts gives it to the pool as its `Client`; issue #38: in place
 * of a patch of `pg.Client.prototype` for every client of the process): a `begin` carries the deadline's
 * settings and the statements given by {@link PipelinedClient.beginWith}; {@link PipelinedClient.sendAll}
 * sends statements back to back; a parameterised text sent a second time becomes a prepared statement
 * ({@link MAX_NAMED}).
 */
export class PipelinedClient extends pg.Client {
  /** Statements the next `begin` of this client sends right behind it, and their rows once sent. */
  private carry: { statements: readonly DriverStatement[]; rows?: Promise<unknown[][]> } | undefined;

  override query(config: any, values?: any, callback?: any): any {
    const plain = callback === undefined;
    if (plain && config === 'begin' && (!Array.isArray(values) || values.length === 0)) return this.begin();
    const name =
      typeof config === 'string' && Array.isArray(values) && values.length > 0 ? nameOf(config) : undefined;
    if (name) return super.query({ name, text: config, values } as any, callback);
    return (super.query as Query).call(this, config, values, callback);
  }

  /**
   * Makes the next `begin` on this client (the ORM's, a moment later) send `statements` right behind it,
   * in the same write (issue #24: a group's opening reads cost no round trip of their own); `rows()`
   * then gives each statement's rows, or the first error (the transaction is then aborted: its next
   * statement fails, and its owner rolls it back). Without pg's pipeline mode they go after the begin.
   */
  beginWith(statements: readonly DriverStatement[]): { rows: () => Promise<unknown[][]> } {
    const carry: { statements: readonly DriverStatement[]; rows?: Promise<unknown[][]> } = { statements };
    this.carry = statements.length ? carry : undefined;
    return { rows: () => (carry.rows ??= this.sendAll(statements)) };
  }

  /**
   * Sends `statements` (and with `commit`, a `commit`) back to back, in one write, without waiting for each
   * other's answers (pg's pipeline mode; one after the other without it); resolves to each statement's
   * rows, or rejects with the first error. A `commit` that answers ROLLBACK (a statement aborted the
   * transaction) rejects.
   */
  sendAll(statements: readonly DriverStatement[], commit = false): Promise<unknown[][]> {
    if (!(this as unknown as { pipeline?: boolean }).pipeline) return this.oneByOne(statements, commit);
    const stream = this.stream();
    stream.cork?.();
    let sent: Promise<Answer>[];
    try {
      sent = statements.map((s) => this.query(s.text, [...s.values]) as Promise<Answer>);
      if (commit) sent.push(this.query('commit') as Promise<Answer>);
    } finally {
      stream.uncork?.();
    }
    return Promise.all(sent).then((rs) => {
      // A `commit` of a transaction that one of the statements aborted answers ROLLBACK (and that
      // statement's error has rejected already).
      if (commit && rs.at(-1)?.command !== 'COMMIT')
        throw new Error('pipeline: the transaction was rolled back');
      return rs.slice(0, statements.length).map((r) => r.rows);
    });
  }

  private async oneByOne(statements: readonly DriverStatement[], commit: boolean): Promise<unknown[][]> {
    const out: unknown[][] = [];
    for (const s of statements) out.push(((await this.query(s.text, [...s.values])) as Answer).rows);
    if (commit && ((await this.query('commit')) as Answer).command !== 'COMMIT')
      throw new Error('pipeline: the transaction was rolled back');
    return out;
  }

  private stream(): { cork?: () => void; uncork?: () => void } {
    return (this as unknown as { connection: { stream: { cork?: () => void; uncork?: () => void } } })
      .connection.stream;
  }

  /**
   * A `begin` with the deadline's settings ({@link setBeginSuffix}) in one simple query and the carried
   * statements ({@link beginWith}) behind it, in one write; the caller sees the result of `begin`.
   */
  private begin(): Promise<unknown> {
    const suffix = beginSuffix();
    const carry = this.carry && (this as unknown as { pipeline?: boolean }).pipeline ? this.carry : undefined;
    this.carry = undefined;
    const stream = this.stream();
    stream.cork?.();
    try {
      const begun = (
        (super.query as Query).call(this, suffix ? `begin; ${suffix}` : 'begin') as Promise<unknown>
      ).then((r) => (Array.isArray(r) ? r[0] : r));
      if (carry) {
        carry.rows = this.sendAll(carry.statements);
        // Read by the owner once the transaction has begun; never an unhandled rejection.
        carry.rows.catch(() => undefined);
      }
      return begun;
    } finally {
      stream.uncork?.();
    }
  }
}

/** The prepared statement's name of a parameterised text: given the second time it is sent (bounded). */
function nameOf(text: string): string | undefined {
  let name = named.get(text);
  if (!name && named.size < MAX_NAMED) {
    if (seen.has(text)) {
      seen.delete(text);
      name = `bm_${named.size}`;
      named.set(text, name);
    } else if (seen.size < MAX_SEEN) seen.add(text);
  }
  return name;
}

/** How many statement texts this process has named (tests, benchmarks). */
export const preparedStatementCount = (): number => named.size;
