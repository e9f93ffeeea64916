/**
 * The one-line address of a party from its structured fields (issue #21: a partner or company profile
 * given `street`, `city`, `postalCode` without `address` gets this). Pure.
 */

/** "street, postal code city" (Slovak order), skipping what is empty; null when nothing is given. */
export function composeAddress(
  street?: string | null,
  postalCode?: string | null,
  city?: string | null,
): string | null {
  const place = [postalCode, city].filter((s) => !!s?.trim()).join(' ');
  return [street, place].filter((s) => !!s?.trim()).join(', ') || null;
}
