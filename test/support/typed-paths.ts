/**
 * Calls by concrete URL, typed by the generated client (issue #14): `/1.6/sales/invoices/${id}/payments`
 * is accepted where the OpenAPI document has `/1.6/sales/invoices/{id}/payments` with that method, and
 * the body must be that operation's request body. A path, method or body field the document does not
 * have does not compile, so a contract change that breaks clients breaks the tests' type check.
 */
import type { paths } from '@bm/client';

export type Method = 'get' | 'post' | 'put';

/** The document's path templates that have `M`. */
type Templates<M extends Method> = {
  [K in keyof paths]: [NonNullable<paths[K][M]>] extends [never] ? never : K;
}[keyof paths];

/** A template with each `{param}` replaced by any text. */
type Fill<T extends string> = T extends `${infer A}{${string}}${infer B}` ? `${A}${string}${Fill<B>}` : T;

/** The concrete URLs (with or without a query string) of the operations with method `M`. */
export type CallPath<M extends Method> = {
  [K in Templates<M>]: Fill<K> | `${Fill<K>}?${string}`;
}[Templates<M>];

/** The template(s) a concrete URL matches. */
export type TemplateOf<P extends string, M extends Method> = {
  [K in Templates<M>]: P extends Fill<K> | `${Fill<K>}?${string}` ? K : never;
}[Templates<M>];

/** The JSON request body of the operation(s) behind a concrete URL. */
export type BodyOf<P extends string, M extends Method> =
  NonNullable<paths[TemplateOf<P, M>][M]> extends {
    requestBody?: { content: { 'application/json': infer B } };
  }
    ? B
    : never;

declare const uncheckedBrand: unique symbol;
/** A body deliberately outside the contract (validation and hostile-input tests). */
export type Unchecked = { readonly [uncheckedBrand]: true };

/**
 * Marks a body the test sends on purpose against the contract (a missing field, a wrong type, raw text),
 * so the type check lets it through. Nothing changes at run time.
 */
export const unchecked = <T>(body: T): T & Unchecked => body as T & Unchecked;

/**
 * A URL the test builds at run time (e.g. from a list of resources, or a hostile value in a path
 * segment): the type check cannot see which operation it is, so the test says so.
 */
export const uncheckedPath = (path: string): never => path as never;

/**
 * An exact decimal sent as a JSON number (`12345678901234.5678` keeps every digit): the document types
 * decimals as numbers, and `JSON.rawJSON` writes the text as it is, never through binary floating point.
 */
export const exact = (value: string | number): number =>
  typeof value === 'number'
    ? value
    : ((JSON as unknown as { rawJSON(t: string): unknown }).rawJSON(value) as number);
