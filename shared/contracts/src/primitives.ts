/**
 * Field primitives of the 1.6 contracts (DESIGN §2 "Dates", "Numbers", "Lists").
 *
 * Decimals travel as strings inside the system; the gateway parses JSON numbers losslessly into
 * strings and writes decimal fields back as JSON numbers. Schemas carry marks ({@link isDecimalSchema},
 * {@link isDateSchema}) that the gateway reads to do this.
 */
import { z } from '@hono/zod-openapi';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';

const decimalMarks = new WeakSet<object>();
const dateMarks = new WeakSet<object>();

/** True when the schema (already unwrapped of optional/nullable/default) is a decimal field. */
export const isDecimalSchema = (s: object): boolean => decimalMarks.has(s);
/** True when the schema (already unwrapped) is a business date (`YYYY-MM-DD`). */
export const isDateSchema = (s: object): boolean => dateMarks.has(s);

const intToString = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v);

/**
 * A decimal number with at most `scale` decimals, as a canonical decimal string (`"12.5"`).
 * JSON numbers reach it as strings (lossless parse in the gateway); integers are accepted as numbers.
 */
export function decimal(scale: 2 | 4 | 6 = 4) {
  const re = new RegExp(`^-?\\d{1,14}(\\.\\d{1,${scale}})?$`);
  const s = z
    .preprocess(
      intToString,
      // `abort`: refinements chained onto a decimal (ranges, sign) only ever see a well-formed number.
      z.string().regex(re, { message: `expected a number with at most ${scale} decimals`, abort: true }),
    )
    .openapi({ type: 'number', description: `decimal, at most ${scale} decimal places` });
  decimalMarks.add(s);
  return s;
}

/** Unit prices, unit costs and quantities: 4 decimals. */
export const Decimal4 = () => decimal(4);
/** Amounts: 2 decimals. */
export const Amount = () => decimal(2);

/** A GUID (any 8-4-4-4-12 hex string). */
export const Guid = () => z.guid({ message: 'expected a GUID' }).openapi({ format: 'uuid' });
/** Whether `s` is a GUID in the 8-4-4-4-12 hex form (any case), the check {@link Guid} makes. */
export const isGuid = (s: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/**
 * A business date `YYYY-MM-DD`. The gateway turns an ISO date-time into the calendar date in the
 * company's time zone before validation (DESIGN §2 "Dates").
 */
export function DateOnly() {
  const s = z.iso
    .date({ message: 'expected a date YYYY-MM-DD or an ISO date-time' })
    .openapi({ format: 'date' });
  dateMarks.add(s);
  return s;
}

/** An integer; numeric strings (XML, lossless JSON) are accepted. */
export const Int = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
    z.number({ message: 'expected an integer' }).int({ message: 'expected an integer' }),
  );

/** A boolean; `"true"`/`"false"` (XML) are accepted. */
export const Bool = () =>
  z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ message: 'expected true or false' }),
  );

/** A non-empty trimmed string up to `max` characters. */
export const Text = (max = 255) => z.string().trim().min(1, { message: 'must not be empty' }).max(max);

/** An IBAN (ISO 13616), checked with its check digits; spaces allowed on input, electronic format out. */
export const Iban = () =>
  z
    .string()
    .max(50)
    .transform((s) => electronicFormatIBAN(s) ?? s)
    .refine((s) => isValidIBAN(s), { message: 'not a valid IBAN' });

/** ISO 3166-1 alpha-2 country code, case-insensitive on input, upper-case out. */
export const Country = () =>
  z
    .string()
    .regex(/^[A-Za-z]{2}$/, { message: 'expected a two-letter country code (ISO 3166-1 alpha-2)' })
    .transform((s) => s.toUpperCase());

/** Paging query of every list (DESIGN §2 "Lists"): page from 1, pageSize 1..500 (default 50). */
export const PageQuery = z.object({
  page: Int()
    .pipe(z.number().min(1, { message: 'page numbers start at 1' }))
    .optional(),
  pageSize: Int()
    .pipe(z.number().min(1).max(500, { message: 'pageSize is at most 500' }))
    .optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** The list envelope `{page, pageSize, totalCount, items}` (DESIGN §2 "Lists"). */
export const Page = <T extends z.ZodType>(item: T) =>
  z.object({
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    items: z.array(item),
  });
export type Page<T> = { page: number; pageSize: number; totalCount: number; items: T[] };

/** Default and maximum page size. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** `{id}` of a record addressed by path. */
export const ById = z.object({ id: Guid() });
export type ById = z.infer<typeof ById>;

/** Update request: the id from the path and the whole record (PUT, DESIGN §3 last rule). */
export const UpdateOf = <T extends z.ZodObject>(data: T) => z.object({ id: Guid(), data });

export { z };

/**
 * Requires, for each pair, the id or its insert-only code alternative (INTERFACE §2.1, §2.2, §2.4:
 * `ordnerCode` for `ordnerId`, …); the error names the id field.
 */
export function idOrCode<S extends z.ZodObject>(schema: S, ...pairs: [id: string, code: string][]): S {
  return pairs.reduce(
    (s, [id, code]) =>
      s.refine((v: Record<string, unknown>) => !!(v[id] || v[code]), {
        message: `${id} or ${code} is required`,
        path: [id],
      }) as S,
    schema,
  );
}

/**
 * Schemes of the Peppol Electronic Address Scheme (EAS) code list that an endpoint id (`peppolId`,
 * EN 16931 BT-34/BT-49 scheme) may name: OpenPEPPOL "EAS" code list as used by Peppol BIS Billing 3.0.21
 * (rule PEPPOL-EN16931-CL008). `0245` is the Slovak DIČ, `99xx` the national VAT-number schemes.
 */
export const PEPPOL_EAS_SCHEMES = new Set(
  (
    '0002 0007 0009 0060 0088 0096 0097 0106 0130 0135 0142 0151 0183 0184 0188 0190 0191 0192 0195 0196 ' +
    '0198 0199 0200 0201 0204 0208 0209 0210 0211 0216 0218 0221 0225 0230 0235 0240 0242 0244 0245 0246 ' +
    '0248 9910 9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 ' +
    '9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 ' +
    '9957 9959'
  ).split(' '),
);

/**
 * A Peppol participant id `scheme:identifier` (issue #21): the scheme from {@link PEPPOL_EAS_SCHEMES},
 * the identifier 1–50 characters without spaces or colons. Stored and returned as sent (trimmed), e.g.
 * `0245:2020123456`.
 */
export const PeppolId = () =>
  z
    .string()
    .trim()
    .max(60)
    .refine(
      (v) => {
        const m = /^(\d{4}):([^\s:]{1,50})$/.exec(v);
        return !!m && PEPPOL_EAS_SCHEMES.has(m[1]);
      },
      {
        message: 'expected scheme:identifier with a scheme of the Peppol EAS code list, e.g. 0245:2020123456',
      },
    )
    .openapi({ example: '0245:2020123456' });
