/**
 * A reply written as JSON text (DESIGN §2 "Numbers"): decimal fields (strings inside the system) as exact
 * JSON numbers in canonical form, everything else as `JSON.stringify` writes it. The same text as
 * `JSON.stringify(renderOutput(schema, value, 'json'))`, by a writer compiled once per reply schema: each
 * object field's key text and writer are looked up once per field, not found through the schema's
 * wrappers for every value, and no copy of the reply with a `JSON.rawJSON` per decimal is made (issue #24).
 */
import { isDecimalSchema } from '@bm/contracts';
import { type AnySchema, canonicalDecimal, DECIMAL, kind, shapeOf, unwrap } from './schema-walk.js';

/** Writes one value: its JSON text, or undefined where JSON has none (undefined, a function, a symbol). */
type Writer = (value: unknown) => string | undefined;

/**
 * The JSON text of `value` rendered against `schema` (a reply schema of the contracts); `undefined` when
 * `JSON.stringify` would give none.
 */
export function renderJson(schema: AnySchema | undefined, value: unknown): string | undefined {
  return schema ? writerOf(schema)(value) : generic(undefined, value);
}

const writers = new WeakMap<AnySchema, Writer>();

/** The writer of a schema, compiled on first use (schemas are fixed at start-up). */
function writerOf(schema: AnySchema): Writer {
  let w = writers.get(schema);
  if (!w) {
    // A lazy schema may refer to itself: the entry is a forwarder until the writer is built.
    let built: Writer | undefined;
    writers.set(schema, (v) => built!(v));
    built = compile(schema);
    writers.set(schema, built);
    w = built;
  }
  return w;
}

function compile(schema: AnySchema): Writer {
  const s = unwrap(schema);
  if (!s) return (v) => generic(undefined, v);
  if (isDecimalSchema(s))
    return (v) => (typeof v === 'string' && DECIMAL.test(v) ? canonicalDecimal(v) : generic(s, v));
  const k = kind(s);
  if (k === 'array') {
    let element: Writer | undefined;
    return (v) => {
      if (!Array.isArray(v)) return generic(s, v);
      element ??= writerOf(s._zod.def.element);
      let out = '[';
      for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + (element(v[i]) ?? 'null');
      return `${out}]`;
    };
  }
  if (k === 'record') {
    let value: Writer | undefined;
    return (v) => {
      if (!v || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) return generic(s, v);
      value ??= writerOf(s._zod.def.valueType);
      let out = '{';
      for (const name of Object.keys(v)) {
        const text = value((v as Record<string, unknown>)[name]);
        if (text !== undefined) out += `${out.length > 1 ? ',' : ''}${JSON.stringify(name)}:${text}`;
      }
      return `${out}}`;
    };
  }
  if (k === 'object') {
    const shape = shapeOf(s);
    let fields: Map<string, { key: string; write: Writer }> | undefined;
    return (v) => {
      if (!v || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) return generic(s, v);
      fields ??= new Map(
        Object.keys(shape).map((name) => [
          name,
          { key: `${JSON.stringify(name)}:`, write: writerOf(shape[name]) },
        ]),
      );
      let out = '{';
      for (const name of Object.keys(v)) {
        const value = (v as Record<string, unknown>)[name];
        const field = fields.get(name);
        const text = field ? field.write(value) : generic(undefined, value);
        if (text === undefined) continue;
        out += `${out.length > 1 ? ',' : ''}${field ? field.key : `${JSON.stringify(name)}:`}${text}`;
      }
      return `${out}}`;
    };
  }
  return (v) => (typeof v === 'string' ? JSON.stringify(v) : generic(s, v));
}

/** Any value against any schema, walked as renderOutput walks it (the cases the writers above do not expect). */
function generic(schema: AnySchema | undefined, value: unknown): string | undefined {
  switch (typeof value) {
    case 'string': {
      const s = unwrap(schema);
      return s && isDecimalSchema(s) && DECIMAL.test(value) ? canonicalDecimal(value) : JSON.stringify(value);
    }
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      // undefined, functions and symbols have no JSON text; a bigint makes JSON.stringify throw.
      if (typeof value === 'bigint') JSON.stringify(value);
      return undefined;
  }
  // null, and a byte array (renderOutput leaves it as it is).
  if (value === null || value instanceof Uint8Array) return JSON.stringify(value);
  const s = unwrap(schema);
  if (Array.isArray(value)) {
    const el = kind(s) === 'array' ? s!._zod.def.element : undefined;
    return `[${value.map((v) => generic(el, v) ?? 'null').join(',')}]`;
  }
  const shape = shapeOf(s);
  const every: AnySchema | undefined = kind(s) === 'record' ? s!._zod.def.valueType : undefined;
  let out = '{';
  for (const k of Object.keys(value)) {
    const text = generic(
      every ?? (Object.hasOwn(shape, k) ? shape[k] : undefined),
      (value as Record<string, unknown>)[k],
    );
    if (text !== undefined) out += `${out.length > 1 ? ',' : ''}${JSON.stringify(k)}:${text}`;
  }
  return `${out}}`;
}
