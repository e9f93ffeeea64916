/**
 * Contract factory for master-data resources (DESIGN §4): list, get, create and update (PUT, all data)
 * on `<service>.<resource>.<verb>` subjects.
 */
import { type Contract, defineContract } from './contract.js';
import { ById, Page, PageQuery, UpdateOf, z } from './primitives.js';

export interface Crud<
  In extends z.ZodObject,
  Out extends z.ZodObject,
  Q extends z.ZodObject = typeof PageQuery,
> {
  /** Request: paging query; reply: the list envelope of `Out`. */
  list: Contract<Q, ReturnType<typeof Page<Out>>>;
  /** Request `{id}`; reply `Out`; 404 NotFound for an unknown id or another company's. */
  get: Contract<typeof ById, Out>;
  /** Request `In`; reply `Out`; 409 Conflict for a code the company already uses. */
  create: Contract<In, Out>;
  /** Request `{id, data: In}`; reply `Out`. */
  update: Contract<ReturnType<typeof UpdateOf<In>>, Out>;
  input: In;
  output: Out;
}

/** Builds the four contracts of a resource under `prefix` (e.g. `warehouse.items`). */
export function crudContracts<
  In extends z.ZodObject,
  Out extends z.ZodObject,
  Q extends z.ZodObject = typeof PageQuery,
>(prefix: string, input: In, output: Out, listQuery?: Q): Crud<In, Out, Q> {
  return {
    list: defineContract({
      subject: `${prefix}.list`,
      request: (listQuery ?? PageQuery) as Q,
      reply: Page(output),
    }),
    get: defineContract({ subject: `${prefix}.get`, request: ById, reply: output }),
    create: defineContract({ subject: `${prefix}.create`, request: input, reply: output }),
    update: defineContract({ subject: `${prefix}.update`, request: UpdateOf(input), reply: output }),
    input,
    output,
  };
}

/** `{code, name}`: the shape of the simple code lists (payment/delivery types, cost centers, ...). */
export const CodeListInput = z.object({
  code: z.string().trim().min(1).max(30),
  name: z.string().trim().min(1).max(255),
});
/** A code-list record as returned. */
export const CodeList = CodeListInput.extend({ id: z.guid() });
