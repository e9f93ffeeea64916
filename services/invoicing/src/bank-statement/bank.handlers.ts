/**
 * The `invoicing.bank-statements.*` and `invoicing.bank-entries.*` read and import handlers (issue #45):
 * transport and the checks before the transaction; the work is in statement-import.ts and the pairing
 * kinds (bank-pairing/).
 */
import { createHash } from 'node:crypto';
import {
  getBankStatement,
  getBankStatementDocument,
  importBankStatement,
  listBankEntries,
  listBankStatements,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, unprocessable } from '@bm/errors';
import { serve } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { CamtReadError, type CamtStatement, readCamt053 } from '../bank-format/index.js';
import { getStatement, listEntries, listStatements, statementDocument } from './statement.reads.js';
import { accountByIban, statementBySha } from './statement.store.js';
import { runStatementImport } from './statement-import.kind.js';

type X = { em: Ctx['em'] };

/** The largest statement file taken, bytes (a year of a busy account's entries fits). */
export const STATEMENT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * `POST /1.6/bank/statements`: the file as the bank gave it (base64). 400 not a camt.053 (naming what was
 * expected and the element); 413 above {@link STATEMENT_MAX_BYTES}; 422 `ReferenceNotFound` for an IBAN
 * that is not one of the company's bank accounts, `ValidationFailed` for an entry in another currency
 * than the account. The same file again: `created: false` and the statement stored before.
 */
export async function importStatementFile(ctx: Ctx, documentBase64: string) {
  const bytes = Buffer.from(documentBase64, 'base64');
  if (bytes.byteLength > STATEMENT_MAX_BYTES)
    throw new AppError(
      ErrorKind.invalid,
      ErrorCode.BadRequest,
      `a statement is at most ${STATEMENT_MAX_BYTES} bytes`,
      {
        errors: [{ path: '(body)', message: `at most ${STATEMENT_MAX_BYTES} bytes` }],
      },
    );
  let statement: CamtStatement;
  try {
    statement = readCamt053(bytes);
  } catch (e) {
    if (e instanceof CamtReadError)
      throw new AppError(ErrorKind.invalid, ErrorCode.BadRequest, e.message, {
        errors: [{ path: e.path, message: e.message }],
      });
    throw e;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const companyId = ctx.companyId!;
  const stored = await statementBySha(ctx.em, companyId, sha256);
  if (stored) return { created: false, statement: await getStatement(ctx.em, companyId, stored) };
  const account = await accountByIban(ctx.em, statement.iban);
  if (!account)
    throw unprocessable(
      ErrorCode.ReferenceNotFound,
      `the statement's account ${statement.iban} is not one of the company's bank accounts`,
      {
        errors: [
          {
            path: 'Stmt/Acct/Id/IBAN',
            message: `${statement.iban} is not a bank account of this company (POST /1.6/bank-accounts)`,
          },
        ],
      },
    );
  const foreign = statement.entries.find((e) => e.currency !== account.currency);
  if (foreign || (statement.currency && statement.currency !== account.currency))
    throw unprocessable(
      ErrorCode.ValidationFailed,
      `the account ${account.iban} is in ${account.currency}; the statement ${foreign ? `has an entry in ${foreign.currency}` : `is in ${statement.currency}`}`,
      {
        errors: [
          {
            path: foreign ? `Stmt/Ntry[${foreign.index}]/Amt` : 'Stmt/Acct/Ccy',
            message: `expected ${account.currency}`,
          },
        ],
      },
    );
  return runStatementImport({ ctx, companyId, account, statement, bytes, sha256 });
}

/** Registers the statement and entry handlers. */
export function registerBankStatements(kit: ServiceKit): void {
  const o = kit.serveOpts;
  serve<typeof importBankStatement, X>(
    kit.service,
    importBankStatement,
    (q, ctx) => importStatementFile(ctx, q.document),
    o,
  );
  serve<typeof listBankStatements, X>(
    kit.service,
    listBankStatements,
    (q, ctx) => listStatements(ctx.em, q),
    o,
  );
  serve<typeof getBankStatement, X>(
    kit.service,
    getBankStatement,
    (q, ctx) => getStatement(ctx.em, ctx.companyId!, q.id),
    o,
  );
  serve<typeof getBankStatementDocument, X>(
    kit.service,
    getBankStatementDocument,
    (q, ctx) => statementDocument(ctx.em, ctx.companyId!, q.id),
    o,
  );
  serve<typeof listBankEntries, X>(
    kit.service,
    listBankEntries,
    (q, ctx) => listEntries(ctx.em, ctx.companyId!, q),
    o,
  );
}
