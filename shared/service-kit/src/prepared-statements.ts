/**
 * Prepared statements for the statements a process runs again and again (issue #24 "the hot statements
 * as prepared statements with bind parameters"). The ORM and its query builder send every statement as
 * an unnamed one, so PostgreSQL parses and plans it anew each time; for the write path's statements
 * (the balance lock, the ledger write, the counter, the set insert) that was a large share of the
 * database's CPU per document.
 *
 * pg prepares a statement once per connection when the query carries a `name`. This gives a name to a
 * parameterised statement text the second time the process sends it: a text seen once (a one-off
 * report, a list with an unusual number of ids) stays unnamed, and at most {@link MAX_NAMED} texts are
 * named per process, so the server's memory per connection stays bounded. Statements without
 * parameters (`begin`, `savepoint`, `commit`) are left alone. PostgreSQL replans a prepared statement
 * by itself when a table it uses changes (migrations).
 *
 * The same hook lets a transaction's `begin` carry statements of its own ({@link setBeginSuffix}): the
 * request deadline's `set_config` goes with it in one round trip instead of a second one (issue #24);
 * and it sends a statement sequence ({@link SEQUENCE_MARK}) as one simple query.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** Most statement texts named per process (each is prepared once on each connection that runs it). */
export const MAX_NAMED = 2000;
/** Texts seen but not yet named, remembered up to this many. */
const MAX_SEEN = 20_000;

const named = new Map<string, string>();
const seen = new Set<string>();
let installed = false;
/** SQL sent with every `begin` in the same simple query, when the function returns some. */
let beginSuffix: () => string | undefined = () => undefined;

/**
 * Sets what travels with each transaction's `begin` (called with the caller's async context, e.g. its
 * request's deadline). The text is sent as is in a simple query: it must hold no client data.
 */
export function setBeginSuffix(fn: () => string | undefined): void {
  beginSuffix = fn;
}

/**
 * Statements that the next transaction begun in an async context sends with its `begin`
 * ({@link withBeginStatements}); `outcome` is set once they ran: their rows, one array per statement, or
 * the error that stopped them (the transaction is then begun but aborted: its next statement fails, and
 * the caller rolls it back as after any failed statement).
 */
export interface BeginStatements {
  /** The statements, values written in (bound-query.ts `sequenceText`), `;`-separated. */
  text: string;
  /** How many statements `text` holds. */
  count: number;
  outcome?: { rows: unknown[][] } | { error: unknown };
}
const beginStatements = new AsyncLocalStorage<BeginStatements>();

/**
 * Runs `fn`; the first transaction it begins sends `b`'s statements in the same simple query as its
 * `begin` (one round trip instead of one more per statement; issue #24, a group commit's opening reads).
 * A transaction begun without them (none begun, or `b` already used) leaves `b.outcome` unset.
 */
export function withBeginStatements<T>(b: BeginStatements | undefined, fn: () => Promise<T>): Promise<T> {
  return b ? beginStatements.run(b, fn) : fn();
}

/**
 * The first words of a statement sequence (bound-query.ts `execSequence`): several statements, with their
 * values written in, sent as one simple query; the caller gets each statement's rows (`rows[i]`).
 */
export const SEQUENCE_MARK = '/* bm:sequence */';

/** Installs the naming on pg's client (once per process); every pool of the process uses it. */
export function usePreparedStatements(): void {
  if (installed) return;
  installed = true;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, config: unknown, values?: unknown, callback?: unknown) {
    if (config === 'begin' && callback === undefined && (!Array.isArray(values) || values.length === 0)) {
      const suffix = beginSuffix();
      const carried = beginStatements.getStore();
      const carry = carried && !carried.outcome ? carried : undefined;
      // Several statements in one simple query; the caller sees the result of `begin`.
      if (suffix || carry) {
        const text = ['begin', suffix, carry?.text].filter(Boolean).join(';\n');
        const sent = (query.call(this, text) as Promise<unknown>).then((r) => {
          const all = (Array.isArray(r) ? r : [r]) as { rows: unknown[] }[];
          if (carry) carry.outcome = { rows: all.slice(all.length - carry.count).map((x) => x.rows) };
          return all[0];
        });
        if (!carry) return sent;
        // A carried statement refused by the server (a lock timeout, a deadlock): `begin` ran, so the
        // transaction is open but aborted; its owner learns why from `outcome` and rolls it back. A
        // failure without SQLSTATE (the connection) is the `begin`'s own.
        return sent.catch((e: unknown) => {
          if (typeof (e as { code?: unknown })?.code !== 'string') throw e;
          carry.outcome = { error: e };
          return { command: 'BEGIN', rowCount: null, rows: [] };
        });
      }
    }
    if (typeof config === 'string' && config.startsWith(SEQUENCE_MARK) && callback === undefined) {
      // One result per statement (pg gives an array for several, one result for one).
      return (query.call(this, config) as Promise<unknown>).then((r) => ({
        command: 'SELECT',
        rowCount: null,
        rows: (Array.isArray(r) ? r : [r]).map((x: { rows: unknown[] }) => x.rows),
      }));
    }
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      let name = named.get(config);
      if (!name && named.size < MAX_NAMED) {
        if (seen.has(config)) {
          seen.delete(config);
          name = `bm_${named.size}`;
          named.set(config, name);
        } else if (seen.size < MAX_SEEN) seen.add(config);
      }
      if (name) return query.call(this, { name, text: config, values }, callback);
    }
    return query.call(this, config, values, callback);
  };
}

/** How many statement texts this process has named (tests, benchmarks). */
export const preparedStatementCount = (): number => named.size;
