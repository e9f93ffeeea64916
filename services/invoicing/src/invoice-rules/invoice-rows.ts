/** Rows of an updated invoice (DESIGN §3 "PUT keeps row ids"): which stored row each row sent names. Pure. */

/**
 * For each row sent, the stored row it names by `id` (each stored row at most once; a row without an id,
 * or naming none or one already taken, gets undefined and becomes a new row).
 */
export function matchStoredRows<R extends { id: string }>(
  rows: readonly object[],
  stored: readonly R[],
): (R | undefined)[] {
  const byId = new Map(stored.map((r) => [r.id, r]));
  return rows.map((r) => {
    const id = 'id' in r && typeof r.id === 'string' ? r.id : undefined;
    const hit = id ? byId.get(id) : undefined;
    if (hit) byId.delete(hit.id);
    return hit;
  });
}
