/**
 * Body codecs: lossless JSON (numbers kept as their decimal text, DESIGN §2 "Numbers") and XML in the
 * shape of DESIGN §2 (root element per resource, arrays as a wrapper with repeated singular children).
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * A JSON number as its exact source text. The schema walk turns it into a decimal string where the field
 * is a number, and refuses it where the field is a string (no silent coercion of `tags: [1, 2]`).
 */
export class JsonNumber {
  constructor(readonly source: string) {}
  toString(): string {
    return this.source;
  }
  toJSON(): unknown {
    return (JSON as any).rawJSON(this.source);
  }
}

/** Parses JSON keeping every number as a {@link JsonNumber}, so no decimal passes through a binary float. */
export function parseJsonLossless(text: string): unknown {
  return JSON.parse(text, function (
    this: unknown,
    _key: string,
    value: unknown,
    context?: { source?: string },
  ) {
    return typeof value === 'number' && context?.source !== undefined
      ? new JsonNumber(context.source)
      : value;
  } as any);
}

/** The value with every {@link JsonNumber} replaced by its source text (decimal strings inside the system). */
export function plainJson(value: unknown): unknown {
  if (value instanceof JsonNumber) return value.source;
  if (Array.isArray(value)) return value.map(plainJson);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainJson(v)]));
  return value;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
});

/** Parses an XML request body; returns the content of its root element. @throws Error when not well-formed. */
export function parseXmlBody(text: string): unknown {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`${valid.err.msg} (line ${valid.err.line})`);
  const doc = parser.parse(text) as Record<string, unknown>;
  const roots = Object.keys(doc);
  if (roots.length !== 1) throw new Error('expected exactly one root element');
  const content = doc[roots[0]];
  return content === '' ? {} : content;
}

/** Singular element name for the children of an array field (`rows` → `row`, `entries` → `entry`). */
export function singular(name: string): string {
  if (name === 'vatSummary') return 'vatRate';
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('sses')) return name.slice(0, -2);
  if (name.endsWith('s') && name.length > 1) return name.slice(0, -1);
  return 'item';
}

/** Turns arrays into `{singular: [...]}` wrappers and leaves scalars as text for the builder. */
function shape(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return { [singular(key)]: value.map((v) => shape(v, singular(key))) };
  if (value && typeof value === 'object') {
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v, k)]));
  }
  if (value === null || value === undefined) return '';
  return String(value);
}

const builder = new XMLBuilder({ format: false, suppressEmptyNode: true, processEntities: true });

/** Serialises `value` as an XML document with root element `root`. */
export function toXml(root: string, value: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ [root]: shape(value, root) })}`;
}
