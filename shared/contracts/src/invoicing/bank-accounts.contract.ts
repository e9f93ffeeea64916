/**
 * The company's bank accounts (DESIGN §4; issue #45 for the ledger, fee and interest accounts a statement
 * posts to). Subjects `invoicing.bank-accounts.<verb>`.
 */
import { crudContracts } from '../crud.js';
import { Bool, Guid, Iban, Text, z } from '../primitives.js';

/** Company bank account; `iban` is validated (ISO 13616) and stored in electronic format. */
export const BankAccountInput = z.object({
  code: Text(20),
  name: Text(),
  iban: Iban(),
  bic: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$/, { message: 'expected an 8 or 11 character BIC' })
    .nullable()
    .optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .transform((s) => s.toUpperCase())
    .default('EUR'),
  isDefault: Bool().default(false),
  /** Issue #45: the ledger account of the bank account (default 221) and where its fees (568) and interest (662) are posted. */
  accountCode: z
    .string()
    .trim()
    .regex(/^\d{3,10}$/, { message: 'expected an account number' })
    .default('221'),
  feeAccount: z
    .string()
    .trim()
    .regex(/^\d{3,10}$/, { message: 'expected an account number' })
    .default('568'),
  interestAccount: z
    .string()
    .trim()
    .regex(/^\d{3,10}$/, { message: 'expected an account number' })
    .default('662'),
});
export const BankAccount = z.object({
  id: Guid(),
  code: z.string(),
  name: z.string(),
  iban: z.string(),
  bic: z.string().nullable(),
  currency: z.string(),
  isDefault: z.boolean(),
  accountCode: z.string(),
  feeAccount: z.string(),
  interestAccount: z.string(),
});
export const bankAccounts = crudContracts('invoicing.bank-accounts', BankAccountInput, BankAccount);
