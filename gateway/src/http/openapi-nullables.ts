/**
 * Makes the OpenAPI document say `null` where an answer may carry null (issue #11: the contract must be true
 * to every answer). zod-to-openapi renders a nullable field whose inner schema overrides its OpenAPI `type`
 * (our decimals: JSON numbers inside, decimal strings in zod) with the inner type alone, so `bonusPercent:
 * null` violated `type: number`. Each such nullable gets its own metadata `type: [<type>, "null"]`.
 */
import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { z } from '@hono/zod-openapi';

type Node = { _zod: { def: any } } | undefined;

/** Walks `schema` (objects, arrays, unions, wrappers, pipes) and documents every nullable it finds. */
export function documentNullables(schema: unknown, seen = new WeakSet<object>()): void {
  const s = schema as Node;
  if (!s?._zod || seen.has(s)) return;
  seen.add(s);
  const def = s._zod.def;
  if (def.type === 'nullable') {
    const inner = getOpenApiMetadata(def.innerType as any).type;
    if (typeof inner === 'string' && !z.globalRegistry.has(s as any))
      z.globalRegistry.add(s as any, { type: [inner, 'null'] } as any);
  }
  if (def.type === 'object') for (const v of Object.values(def.shape ?? {})) documentNullables(v, seen);
  if (def.type === 'array') documentNullables(def.element, seen);
  if (def.type === 'union') for (const o of def.options ?? []) documentNullables(o, seen);
  if (def.type === 'pipe') {
    documentNullables(def.in, seen);
    documentNullables(def.out, seen);
  }
  if (def.type === 'lazy') documentNullables(def.getter(), seen);
  if (def.innerType) documentNullables(def.innerType, seen);
}
