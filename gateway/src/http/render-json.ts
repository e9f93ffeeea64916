/**
 * A reply written as JSON text in one walk (DESIGN §2 "Numbers"): decimal fields (strings inside the
 * system) as exact JSON numbers in canonical form, everything else as `JSON.stringify` writes it. The same
 * text as `JSON.stringify(renderOutput(schema, value, 'json'))`, without the copy of the reply and a
 * `JSON.rawJSON` per decimal (issue #24: the two were 11 % of the gateway's CPU per invoice).
 */
import { isDecimalSchema } from '@bm/contracts';
import { type AnySchema, canonicalDecimal, DECIMAL, kind, shapeOf, unwrap } from './schema-walk.js';

/**
 * The JSON text of `value` rendered against `schema` (a reply schema of the contracts); `undefined` when
 * `JSON.stringify` would give none (an undefined or function value).
 */
export function renderJson(schema: AnySchema | undefined, value: unknown): string | undefined {
  const out: string[] = [];
  return write(out, schema, value) ? out.join('') : undefined;
}

/** Appends `value`'s text to `out`; false (nothing appended) where JSON has no value for it. */
function write(out: string[], schema: AnySchema | undefined, value: unknown): boolean {
  switch (typeof value) {
    case 'string': {
      const s = unwrap(schema);
      out.push(
        s && isDecimalSchema(s) && DECIMAL.test(value) ? canonicalDecimal(value) : JSON.stringify(value),
      );
      return true;
    }
    case 'number':
    case 'boolean':
      out.push(JSON.stringify(value));
      return true;
    case 'object':
      break;
    default:
      // undefined, functions and symbols have no JSON text; a bigint makes JSON.stringify throw.
      if (typeof value === 'bigint') JSON.stringify(value);
      return false;
  }
  if (value === null) {
    out.push('null');
    return true;
  }
  // A byte array passes unrendered, as renderOutput leaves it.
  if (value instanceof Uint8Array) {
    out.push(JSON.stringify(value));
    return true;
  }
  const s = unwrap(schema);
  if (Array.isArray(value)) {
    const el = kind(s) === 'array' ? s!._zod.def.element : undefined;
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i) out.push(',');
      if (!write(out, el, value[i])) out.push('null');
    }
    out.push(']');
    return true;
  }
  const shape = shapeOf(s);
  out.push('{');
  let first = true;
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    out.push(first ? '' : ',', JSON.stringify(k), ':');
    write(out, Object.hasOwn(shape, k) ? shape[k] : undefined, v);
    first = false;
  }
  out.push('}');
  return true;
}
