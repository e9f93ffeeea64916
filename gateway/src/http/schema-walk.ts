/**
 * Schema-driven input normalisation and output rendering (DESIGN §2):
 * - input keys match the documented names case-insensitively; fields the API itself returns are
 *   accepted and ignored; any other field is a 400 naming it;
 * - XML wrappers (`<rows><row>…</row></rows>`) become arrays;
 * - ISO date-times in business-date fields become the calendar date in the company's time zone, and only
 *   real calendar dates and times pass (`2025-02-30T10:00:00Z` is refused, not rolled over to March);
 * - strings holding NUL or a lone UTF-16 surrogate are refused (PostgreSQL text and UTF-8 cannot hold
 *   them); a JSON number where the field is a string is refused (no coercion);
 * - on output, decimal fields (strings inside the system) are written as exact JSON numbers.
 */

import { isDateSchema, isDecimalSchema } from '@bm/contracts';
import type { FieldError } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { JsonNumber, plainJson } from './codec.js';

export type AnySchema = { _zod: { def: any } };
const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
  'lazy',
]);

/**
 * A per-schema memo of a pure function of the schema: the walks below run on every request and body
 * node, the schemas are fixed at start-up (issue #24: the gateway's per-request work cut).
 */
function memo<T>(fn: (s: AnySchema) => T): (s: AnySchema) => T {
  const cache = new WeakMap<AnySchema, T>();
  return (s) => {
    if (cache.has(s)) return cache.get(s) as T;
    const v = fn(s);
    cache.set(s, v);
    return v;
  };
}

/** Strips wrappers and pipes down to the schema that says what the value is (stops at marked leaves). */
export function unwrap(s: AnySchema | undefined): AnySchema | undefined {
  return s && unwrapMemo(s);
}
const unwrapMemo = memo((s: AnySchema) => unwrapOnce(s));
function unwrapOnce(s: AnySchema): AnySchema | undefined {
  let cur: AnySchema | undefined = s;
  for (let i = 0; cur && i < 20; i++) {
    if (isDecimalSchema(cur) || isDateSchema(cur)) return cur;
    const def: any = cur._zod.def;
    if (def.type === 'lazy') cur = def.getter();
    else if (WRAPPERS.has(def.type)) cur = def.innerType;
    else if (def.type === 'pipe') cur = def.in?._zod?.def?.type === 'transform' ? def.out : def.in;
    else return cur;
  }
  return cur;
}

/** The type of a schema (`object`, `array`, `string`, …), as zod names it. */
export const kind = (s: AnySchema | undefined): string | undefined => s?._zod.def.type;

/** True when the field accepts null and is not an object or array (those read `''` as empty). */
const isNullableLeaf = memo((s: AnySchema): boolean => {
  const k = kind(unwrap(s));
  if (k === 'object' || k === 'array') return false;
  let cur: AnySchema | undefined = s;
  for (let i = 0; cur && i < 20; i++) {
    const def: any = cur._zod.def;
    if (def.type === 'nullable') return true;
    if (isDecimalSchema(cur) || isDateSchema(cur) || !WRAPPERS.has(def.type)) return false;
    cur = def.type === 'lazy' ? def.getter() : def.innerType;
  }
  return false;
});
/** An object schema's fields (none for any other schema). */
export const shapeOf = (s: AnySchema | undefined): Record<string, AnySchema> =>
  kind(s) === 'object' ? s!._zod.def.shape : {};
/** An object schema's field names by their lower case (input names match case-insensitively). */
const namesOf = memo(
  (s: AnySchema) => new Map(Object.keys(shapeOf(s)).map((n) => [n.toLowerCase(), n] as const)),
);
const NO_NAMES = new Map<string, string>();

export interface NormalizeOptions {
  xml: boolean;
  timeZone: string;
  /** Extra top-level field names accepted and ignored (e.g. `PeriodYear`). */
  ignore?: string[];
}

const dateTimeRe =
  /^((\d{4})-(\d{2})-(\d{2}))[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):?(\d{2}))?$/i;

/** Whether `y-m-d` is a real calendar date (proleptic Gregorian). */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [
    31,
    (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return d <= days[m - 1];
}

/**
 * Calendar date of an ISO date-time in `timeZone`; a date-time without offset keeps its date. A value
 * that is not a real date and time is returned unchanged, so the date field refuses it.
 */
export function businessDate(v: string, timeZone: string): string {
  const m = dateTimeRe.exec(v);
  if (!m) return v;
  const [, date, y, mo, d, h, mi, sec, zone, zh, zm] = m;
  const validTime = Number(h) <= 23 && Number(mi) <= 59 && (sec === undefined || Number(sec) <= 59);
  const validZone = !zone || zone.toUpperCase() === 'Z' || (Number(zh) <= 23 && Number(zm) <= 59);
  if (!isCalendarDate(Number(y), Number(mo), Number(d)) || !validTime || !validZone) return v;
  if (!zone) return date;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return v;
  return todayIn(timeZone, new Date(t));
}

/**
 * Whether a field takes text only: its schema, through optional/nullable/default wrappers, is a string,
 * enum or literal with no preprocessing step (decimals, integers and booleans preprocess their input).
 */
const isPlainText = memo((schema: AnySchema): boolean => {
  let cur: AnySchema | undefined = schema;
  for (let i = 0; cur && i < 20; i++) {
    if (isDecimalSchema(cur)) return false;
    const def: any = cur._zod.def;
    if (def.type === 'lazy') cur = def.getter();
    else if (WRAPPERS.has(def.type)) cur = def.innerType;
    else return def.type === 'string' || def.type === 'enum' || def.type === 'literal';
  }
  return false;
});

/**
 * Normalises an input value against `schema`; `accepted` is the reply schema of the same node, whose
 * fields are accepted and ignored. Returns the normalised value; problems go to `errors`.
 */
export function normalizeInput(
  schema: AnySchema,
  accepted: AnySchema | undefined,
  value: unknown,
  opts: NormalizeOptions,
  errors: FieldError[],
  path = '',
): unknown {
  const s = unwrap(schema);
  const a = unwrap(accepted);
  const k = kind(s);
  if (typeof value === 'string' && value.includes('\u0000')) {
    errors.push({ path, message: 'must not contain the NUL character' });
    return value;
  }
  if (typeof value === 'string' && !value.isWellFormed()) {
    errors.push({ path, message: 'must be well-formed Unicode (a lone UTF-16 surrogate is not)' });
    return value;
  }
  if (value instanceof JsonNumber) {
    // A number where the field is plain text or one of a set of words: refused, not coerced.
    if (isPlainText(schema)) errors.push({ path, message: 'expected a string, not a number' });
    return value.source;
  }
  if (isDateSchema(s!) && typeof value === 'string') return businessDate(value.trim(), opts.timeZone);
  if (k === 'object') {
    if (opts.xml && value === '') return {};
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const shape = shapeOf(s);
    const names = namesOf(s!);
    const acceptedNames = a && kind(a) === 'object' ? namesOf(a) : NO_NAMES;
    const ignore = new Set((path === '' ? (opts.ignore ?? []) : []).map((n) => n.toLowerCase()));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const lower = key.toLowerCase();
      const name = names.get(lower);
      const at = path ? `${path}.${key}` : key;
      if (name) {
        if (name in out) {
          errors.push({
            path: at,
            message: `field ${name} is given more than once (names are case-insensitive)`,
          });
          continue;
        }
        const acc = acceptedNames.has(lower) ? shapeOf(a)[acceptedNames.get(lower)!] : undefined;
        // XML writes null as an empty element (DESIGN §2 "Response format"): read it back as null.
        const val = opts.xml && v === '' && isNullableLeaf(shape[name]) ? null : v;
        out[name] = normalizeInput(shape[name], acc, val, opts, errors, path ? `${path}.${name}` : name);
      } else if (!acceptedNames.has(lower) && !ignore.has(lower)) {
        errors.push({ path: at, message: 'unknown field' });
      }
    }
    return out;
  }
  if (k === 'array') {
    let arr = value;
    if (opts.xml && !Array.isArray(arr)) {
      if (arr === '' || arr === undefined) arr = [];
      else if (arr && typeof arr === 'object' && Object.keys(arr).length === 1) {
        const inner = Object.values(arr)[0];
        arr = Array.isArray(inner) ? inner : [inner];
      }
    }
    if (!Array.isArray(arr)) return arr;
    const el = s!._zod.def.element;
    const accEl = kind(a) === 'array' ? a!._zod.def.element : undefined;
    return arr.map((v, i) => normalizeInput(el, accEl, v, opts, errors, `${path}.${i}`));
  }
  return plainJson(value);
}

/**
 * Canonical text of a decimal string: no trailing fraction zeros, no leading zeros, no `-0` (`"1.50"` →
 * `"1.5"`, `"007"` → `"7"`): valid as a JSON number.
 */
export function canonicalDecimal(v: string): string {
  let end = v.length;
  if (v.includes('.')) {
    while (v.charCodeAt(end - 1) === 48) end--; // '0'
    if (v.charCodeAt(end - 1) === 46) end--; // '.'
  }
  const negative = v.charCodeAt(0) === 45; // '-'
  let start = negative ? 1 : 0;
  // No leading zeros in the integer part ("007.5" → "7.5"): a JSON number cannot have them.
  while (start < end - 1 && v.charCodeAt(start) === 48 && v.charCodeAt(start + 1) !== 46) start++;
  if (start === 0 && end === v.length) return v;
  const digits = v.slice(start, end);
  return digits === '0' || !negative ? digits : `-${digits}`;
}

/**
 * Prepares a reply for output: decimal fields (strings inside the system) in canonical form, and for
 * JSON as raw JSON numbers so `JSON.stringify` writes them exactly (DESIGN §2 "Numbers").
 */
export function renderOutput(schema: AnySchema | undefined, value: unknown, format: 'json' | 'xml'): unknown {
  // Numbers, booleans and null pass as they are: only strings, arrays and objects need the schema.
  if (value === null || (typeof value !== 'string' && typeof value !== 'object')) return value;
  const s = unwrap(schema);
  if (typeof value === 'string') {
    if (!s || !isDecimalSchema(s) || !DECIMAL.test(value)) return value;
    const text = canonicalDecimal(value);
    return format === 'json' ? (JSON as any).rawJSON(text) : text;
  }
  if (Array.isArray(value)) {
    const el = kind(s) === 'array' ? s!._zod.def.element : undefined;
    return value.map((v) => renderOutput(el, v, format));
  }
  if (value instanceof Uint8Array) return value;
  const shape = shapeOf(s);
  // A record (`z.record(key, value)`): every field has the value schema.
  const every: AnySchema | undefined = kind(s) === 'record' ? s!._zod.def.valueType : undefined;
  // No prototype: a key `__proto__` (an own field after JSON.parse) stays a field, not a prototype.
  const out: Record<string, unknown> = Object.create(null);
  // Own fields only: a reply key such as `valueOf` is not a field of the schema.
  for (const k of Object.keys(value))
    out[k] = renderOutput(
      every ?? (Object.hasOwn(shape, k) ? shape[k] : undefined),
      (value as Record<string, unknown>)[k],
      format,
    );
  return out;
}
/** A decimal field's text as the system keeps it (rendered as a JSON number). */
export const DECIMAL = /^-?\d+(\.\d+)?$/;
