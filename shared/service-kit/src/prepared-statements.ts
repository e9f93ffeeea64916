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
 * The same client lets a transaction's `begin` carry statements of its own ({@link setBeginSuffix}): the
 * request deadline's `set_config` goes with it in one round trip instead of a second one (issue #24);
 * and it sends a pipeline of prepared statements ({@link PIPELINE_MARK}, {@link withBeginStatements}) in
 * one write without waiting between them (pg's `pipeline` mode, which `initOrm` turns on).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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

/**
 * Statements that the next transaction begun in an async context sends right behind its `begin`
 * ({@link withBeginStatements}), pipelined (issue #24, a group commit's opening reads). `outcome` is set
 * when they were sent: each statement's rows, or the first error (the transaction is then begun but
 * aborted: its next statement fails, and its owner rolls it back as after any failed statement). Left
 * unset on a connection that does not pipeline (pg's `pipeline` option): the owner runs them itself.
 */
export interface BeginStatements {
  statements: DriverStatement[];
  outcome?: Promise<unknown[][]>;
}
const beginStatements = new AsyncLocalStorage<BeginStatements>();

/**
 * Runs `fn`; the first transaction it begins sends `b`'s statements right behind its `begin`, in the
 * same write to the socket, so they cost no round trip of their own (see {@link BeginStatements}).
 */
export function withBeginStatements<T>(b: BeginStatements | undefined, fn: () => Promise<T>): Promise<T> {
  return b ? beginStatements.run(b, fn) : fn();
}

/**
 * The text that stands for a pipeline of statements (bound-query.ts `execPipelined`): `PIPELINE_MARK`
 * and the id under which {@link registerPipeline} keeps them until the connection sends them.
 */
export const PIPELINE_MARK = '/* bm:pipeline */';
const pipelines = new Map<string, { statements: DriverStatement[]; commit: boolean }>();
let pipelineIds = 0;

/**
 * Keeps `statements` until sent; returns the text that makes the connection send them (once). With
 * `commit`, the transaction's `commit` goes right behind them, and the ORM's own `commit` that follows
 * is answered without being sent.
 */
export function registerPipeline(statements: DriverStatement[], commit = false): string {
  const id = String(++pipelineIds);
  pipelines.set(id, { statements, commit });
  return `${PIPELINE_MARK} ${id}`;
}

/**
 * Throws unless the pipeline of `text` ({@link registerPipeline}) was sent: a pool whose clients are not
 * {@link PipelinedClient} would have sent the mark as a comment and answered nothing.
 */
export function assertPipelineSent(text: string): void {
  const id = text.slice(PIPELINE_MARK.length + 1);
  if (pipelines.delete(id)) throw new Error('pipeline not sent: the pool must use PipelinedClient (orm.ts)');
}

type Client = {
  query: (...args: unknown[]) => unknown;
  pipeline?: boolean;
  connection: { stream: { cork?: () => void; uncork?: () => void } };
  /** Its transaction was committed by a pipeline: its next `commit` or `rollback` is not sent. */
  bmCommitted?: boolean;
};
type Answer = { rows: unknown[]; command?: string };

/**
 * Sends `statements` (and with `commit`, a `commit`) on `client` back to back, in one write, without
 * waiting for each other's answers (pg's pipeline mode); resolves to each statement's rows, or rejects
 * with the first error.
 */
function pipelined(client: Client, statements: DriverStatement[], commit: boolean): Promise<unknown[][]> {
  const stream = client.connection.stream;
  stream.cork?.();
  let sent: Promise<Answer>[];
  try {
    sent = statements.map((s) => client.query(s.text, [...s.values]) as Promise<Answer>);
    if (commit) {
      sent.push(client.query('commit') as Promise<Answer>);
      client.bmCommitted = true;
    }
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

/** {@link pipelined} on a connection that does not pipeline: one statement after the other. */
async function oneByOne(
  client: Client,
  statements: DriverStatement[],
  commit: boolean,
): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for (const s of statements) out.push(((await client.query(s.text, [...s.values])) as Answer).rows);
  if (commit) {
    await client.query('commit');
    client.bmCommitted = true;
  }
  return out;
}

/** pg's `query` of a client, as the hook calls it. */
type Query = (...args: unknown[]) => unknown;

/**
 * The pg client of the services' pools (orm.ts gives it to the pool as its `Client`; issue #38: in place
 * of a patch of `pg.Client.prototype` for every client of the process): a `begin` carries the deadline's
 * settings and the statements of {@link withBeginStatements}; a pipeline registered by
 * {@link registerPipeline} is sent when its mark arrives; a transaction committed by its pipeline answers
 * the ORM's `commit` without sending it; a parameterised text sent a second time becomes a prepared
 * statement ({@link MAX_NAMED}).
 */
export class PipelinedClient extends pg.Client {
  override query(config: any, values?: any, callback?: any): any {
    return hooked(
      this as unknown as Client,
      (...args) => (super.query as Query).apply(this, args),
      config,
      values,
      callback,
    );
  }
}

function hooked(
  client: Client,
  query: Query,
  config: unknown,
  values?: unknown,
  callback?: unknown,
): unknown {
  const plain = callback === undefined;
  if (plain && config === 'begin' && (!Array.isArray(values) || values.length === 0)) {
    const begun = begin(client, query);
    if (begun) return begun;
  }
  if (plain && typeof config === 'string' && config.startsWith(PIPELINE_MARK))
    return sendPipeline(client, config);
  if (plain && (config === 'commit' || config === 'rollback') && client.bmCommitted) {
    client.bmCommitted = false;
    // Committed already, with its last statement (a rollback after that has nothing left to undo).
    return Promise.resolve({ command: config.toUpperCase(), rowCount: null, rows: [] });
  }
  const name =
    typeof config === 'string' && Array.isArray(values) && values.length > 0 ? nameOf(config) : undefined;
  if (name) return query({ name, text: config, values }, callback);
  return query(config, values, callback);
}

/**
 * A `begin` that carries the deadline's settings ({@link setBeginSuffix}) and the statements of
 * {@link withBeginStatements}, in one write; undefined when it carries nothing (sent as is).
 */
function begin(client: Client, query: Query): Promise<unknown> | undefined {
  const suffix = beginSuffix();
  const carried = beginStatements.getStore();
  const carry = carried && !carried.outcome && client.pipeline ? carried : undefined;
  if (!suffix && !carry) return undefined;
  // `begin` and the deadline's settings in one simple query; the caller sees the result of `begin`.
  const stream = client.connection.stream;
  stream.cork?.();
  try {
    const begun = (query(suffix ? `begin; ${suffix}` : 'begin') as Promise<unknown>).then((r) =>
      Array.isArray(r) ? r[0] : r,
    );
    if (carry) {
      carry.outcome = pipelined(client, carry.statements, false);
      // Read by the owner once the transaction has begun; never an unhandled rejection.
      carry.outcome.catch(() => undefined);
    }
    return begun;
  } finally {
    stream.uncork?.();
  }
}

/** Sends the pipeline registered under the mark `config` ({@link registerPipeline}). */
function sendPipeline(client: Client, config: string): Promise<unknown> {
  const id = config.slice(PIPELINE_MARK.length + 1);
  const p = pipelines.get(id);
  if (!p) return Promise.reject(new Error(`pipeline ${id} is unknown or was sent already`));
  pipelines.delete(id);
  const send = client.pipeline ? pipelined : oneByOne;
  return send(client, p.statements, p.commit).then((rows) => ({ command: 'SELECT', rowCount: null, rows }));
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
