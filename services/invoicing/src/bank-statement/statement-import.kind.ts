/**
 * Importing a bank statement is a document kind (issue #45; DESIGN §6d "as a document kind like the
 * others"), run by `runDocument` in the group commit of `invoicing:bank-statement`. Its record number is
 * the file's SHA-256 (`storedNumbering`: nothing is counted); imports into one bank account share a lock,
 * so the engine runs them in order, and the account's advisory lock keeps other replicas out. The same
 * file again, even at the same time, finds the statement stored and stores nothing (`created: false`);
 * the entries' unique key per account is what guarantees nothing is paid twice.
 */
import type { BankStatement } from '@bm/contracts';
import { type Ctx, type DocumentKind, runDocument, storedNumbering } from '@bm/service-kit';
import { getStatement } from './statement.reads.js';
import { lockAccount, statementBySha } from './statement.store.js';
import { importStatement, type StatementFile } from './statement-import.js';

/** The statement stored by this import, or the one stored before from the same bytes. */
interface Imported {
  statementId: string;
  created: boolean;
}

export interface StatementImportInput extends StatementFile {
  ctx: Ctx;
}

export const statementImportKind: DocumentKind<
  StatementImportInput,
  string | null,
  Imported,
  { created: boolean; statement: BankStatement }
> = {
  key: 'invoicing:bank-statement',
  declare: (f) => ({
    numbering: storedNumbering('"invoicing"."bank_statement"', f.companyId, f.sha256),
    locks: [`bank-account:${f.account.id}`],
  }),
  read: async (f, doc) => {
    await lockAccount(doc.tx, f.account.id);
    return statementBySha(doc.tx, f.companyId, f.sha256);
  },
  decide: async (f, existing, doc) =>
    existing
      ? { statementId: existing, created: false }
      : { statementId: (await importStatement(doc.tx, f)).statementId, created: true },
  writer: () => [],
  reply: async (w, _n, f) => ({
    created: w.created,
    statement: await getStatement(f.ctx.em.fork(), f.companyId, w.statementId),
  }),
};

/** Runs the import of a file read and checked before (see bank.handlers.ts). */
export const runStatementImport = (input: StatementImportInput) =>
  runDocument(statementImportKind, input.ctx.em, input);
