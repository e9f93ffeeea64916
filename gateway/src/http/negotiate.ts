/**
 * Response-format negotiation (DESIGN §2 "Response format"): JSON by default, XML on
 * `Accept: application/xml` or `text/xml`; an Accept that allows neither is 406.
 */
export type Format = 'json' | 'xml';

interface Range {
  type: string;
  q: number;
  order: number;
}

/** Parses an Accept header into media ranges with their q values, best first. */
export function parseAccept(accept: string | undefined): Range[] {
  if (!accept?.trim()) return [];
  return accept
    .split(',')
    .map((part, order) => {
      const [type, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { type: type.trim(), q: q ? Number(q.slice(2)) || 0 : 1, order };
    })
    .filter((r) => r.type && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
}

const matches = (range: string, type: string) =>
  range === type || range === '*/*' || (range.endsWith('/*') && type.startsWith(range.slice(0, -1)));

/** The format to answer in, or `null` when the client accepts neither JSON nor XML (406). */
export function chooseFormat(accept: string | undefined): Format | null {
  if (!accept?.trim()) return 'json';
  const ranges = parseAccept(accept);
  for (const r of ranges) {
    if (r.type === 'application/xml' || r.type === 'text/xml') return 'xml';
    if (matches(r.type, 'application/json') || r.type === 'application/problem+json') return 'json';
  }
  return null;
}

/** True when the Accept header names `type` explicitly (not only through a wildcard). */
export function acceptsExplicitly(accept: string | undefined, type: string): boolean {
  return parseAccept(accept).some((r) => r.type === type);
}
