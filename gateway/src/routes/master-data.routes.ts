/**
 * Master-data operations of DESIGN §4: list/create on `/1.6/<resource>`, get/update on `/{id}`,
 * lot numbers of an item, closing a period, and ordners routed by `documentType` to the service that
 * owns that document type.
 */
import {
  ById,
  bankAccounts,
  Company,
  CompanyInput,
  type Crud,
  closePeriod,
  costCenters,
  costUnits,
  createLotNumber,
  DEFAULT_PAGE_SIZE,
  deliveryTypes,
  Guid,
  getCompany,
  getParticipant,
  invoicingOrdners,
  items,
  LotNumber,
  LotNumberInput,
  listLotNumbers,
  MAX_PAGE_SIZE,
  Ordner,
  OrdnerInput,
  ordnerOwner,
  Page,
  PageQuery,
  Period,
  partners,
  paymentTypes,
  periods,
  persons,
  projects,
  reports,
  units,
  updateCompany,
  vatCodes,
  warehouseOrdners,
  warehouses,
  z,
} from '@bm/contracts';
import { AppError, ErrorCode, notFound, validationFailed } from '@bm/errors';
import type { Caller, Operation } from './operation.js';

const IdParams = z.object({ id: Guid() });

/** The four operations of a resource at `/1.6/<path>`. */
export function crudOperations(
  path: string,
  crud: Crud<any, any, any>,
  xmlName: string,
  tag = 'Master data',
): Operation[] {
  const base = `/1.6/${path}`;
  return [
    {
      method: 'get',
      path: base,
      summary: `List ${path}`,
      tag,
      query: PageQuery,
      reply: crud.list.reply,
      xmlRoot: `${xmlName}s`,
      run: ({ query }, call) => call(crud.list, query),
    },
    {
      method: 'post',
      path: base,
      summary: `Create ${xmlName}`,
      tag,
      body: { schema: crud.input },
      reply: crud.output,
      xmlRoot: xmlName,
      status: 201,
      run: ({ body }, call) => call(crud.create, body),
    },
    {
      method: 'get',
      path: `${base}/{id}`,
      summary: `Get ${xmlName}`,
      tag,
      params: IdParams,
      reply: crud.output,
      xmlRoot: xmlName,
      run: ({ params }, call) => call(crud.get, params),
    },
    {
      method: 'put',
      path: `${base}/{id}`,
      summary: `Update ${xmlName} (all data, not a patch)`,
      tag,
      params: IdParams,
      // The update's own data schema: a resource may relax the create's defaults on PUT (warehouses).
      body: { schema: (crud.update.request as z.ZodObject<{ data: z.ZodObject }>).shape.data },
      reply: crud.output,
      xmlRoot: xmlName,
      run: ({ params, body }, call) => call(crud.update, { id: params.id, data: body }),
    },
  ];
}

const ordnerCruds = { warehouse: warehouseOrdners, invoicing: invoicingOrdners };

/** Finds which service holds ordner `id`; 404 when neither does. */
async function findOrdner(
  call: Caller,
  id: string,
): Promise<{ owner: keyof typeof ordnerCruds; ordner: Ordner }> {
  const tries = await Promise.allSettled([
    call(warehouseOrdners.get, { id }),
    call(invoicingOrdners.get, { id }),
  ]);
  for (const [i, owner] of (['warehouse', 'invoicing'] as const).entries()) {
    const t = tries[i];
    if (t.status === 'fulfilled') return { owner, ordner: t.value };
  }
  const real = tries.find(
    (t) => t.status === 'rejected' && !(t.reason instanceof AppError && t.reason.code === ErrorCode.NotFound),
  );
  if (real) throw (real as PromiseRejectedResult).reason;
  throw notFound('Ordner');
}

/** Ordners: one resource for clients, stored by the service that owns the document type. */
export const ordnerOperations: Operation[] = [
  {
    method: 'get',
    path: '/1.6/ordners',
    summary: 'List ordners of every document type',
    tag: 'Master data',
    query: PageQuery,
    reply: Page(Ordner),
    xmlRoot: 'Ordners',
    run: async ({ query }, call) => {
      const all = (
        await Promise.all([
          call(warehouseOrdners.list, { page: 1, pageSize: MAX_PAGE_SIZE }),
          call(invoicingOrdners.list, { page: 1, pageSize: MAX_PAGE_SIZE }),
        ])
      )
        .flatMap((p) => p.items)
        .sort((a, b) => a.code.localeCompare(b.code));
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
      return {
        page,
        pageSize,
        totalCount: all.length,
        items: all.slice((page - 1) * pageSize, page * pageSize),
      };
    },
  },
  {
    method: 'post',
    path: '/1.6/ordners',
    summary: 'Create an ordner (routed by documentType)',
    tag: 'Master data',
    body: { schema: OrdnerInput },
    reply: Ordner,
    xmlRoot: 'Ordner',
    status: 201,
    run: ({ body }, call) =>
      call(ordnerCruds[ordnerOwner[body.documentType as keyof typeof ordnerOwner]].create, body),
  },
  {
    method: 'get',
    path: '/1.6/ordners/{id}',
    summary: 'Get an ordner',
    tag: 'Master data',
    params: IdParams,
    reply: Ordner,
    xmlRoot: 'Ordner',
    run: async ({ params }, call) => (await findOrdner(call, params.id)).ordner,
  },
  {
    method: 'put',
    path: '/1.6/ordners/{id}',
    summary: 'Update an ordner (documentType stays with its owning service)',
    tag: 'Master data',
    params: IdParams,
    body: { schema: OrdnerInput },
    reply: Ordner,
    xmlRoot: 'Ordner',
    run: async ({ params, body }, call) => {
      const { owner } = await findOrdner(call, params.id);
      if (ordnerOwner[body.documentType as keyof typeof ordnerOwner] !== owner) {
        throw validationFailed([
          {
            path: 'documentType',
            message: `an ordner of ${owner} documents cannot hold ${body.documentType}`,
          },
        ]);
      }
      return call(ordnerCruds[owner].update, { id: params.id, data: body });
    },
  },
];

/** Lot numbers of an item and closing of a period. */
export const extraOperations: Operation[] = [
  {
    method: 'get',
    path: '/1.6/items/{id}/lot-numbers',
    summary: "List an item's lot numbers",
    tag: 'Master data',
    params: IdParams,
    query: PageQuery,
    reply: Page(LotNumber),
    xmlRoot: 'LotNumbers',
    run: ({ params, query }, call) => call(listLotNumbers, { ...query, itemId: params.id }),
  },
  {
    method: 'post',
    path: '/1.6/items/{id}/lot-numbers',
    summary: 'Create a lot number of an item',
    tag: 'Master data',
    params: IdParams,
    body: { schema: LotNumberInput, accepted: LotNumber },
    reply: LotNumber,
    xmlRoot: 'LotNumber',
    status: 201,
    run: ({ params, body }, call) => call(createLotNumber, { itemId: params.id, data: body }),
  },
  {
    method: 'post',
    path: '/1.6/periods/{id}/close',
    summary: 'Close an accounting period',
    tag: 'Master data',
    params: ById,
    reply: Period,
    xmlRoot: 'Period',
    run: ({ params }, call) => call(closePeriod, params),
  },
];

/** Every master-data operation. */
export const masterDataOperations: Operation[] = [
  ...crudOperations('warehouses', warehouses, 'Warehouse'),
  ...crudOperations('items', items, 'Item'),
  ...crudOperations('units', units, 'Unit'),
  ...crudOperations('partners', partners, 'Partner'),
  ...crudOperations('vat-codes', vatCodes, 'VatCode'),
  ...crudOperations('periods', periods, 'Period'),
  // GET /1.6/reports/{id} is also the printout path: served by printout.routes.ts.
  ...crudOperations('reports', reports, 'Report').filter(
    (o) => !(o.method === 'get' && o.path.endsWith('{id}')),
  ),
  ...crudOperations('payment-types', paymentTypes, 'PaymentType'),
  ...crudOperations('delivery-types', deliveryTypes, 'DeliveryType'),
  ...crudOperations('bank-accounts', bankAccounts, 'BankAccount'),
  ...crudOperations('cost-centers', costCenters, 'CostCenter'),
  ...crudOperations('cost-units', costUnits, 'CostUnit'),
  ...crudOperations('persons', persons, 'Person'),
  ...crudOperations('projects', projects, 'Project'),
  ...ordnerOperations,
  ...extraOperations,
  {
    method: 'get',
    path: '/1.6/company',
    summary: "The caller's own company: what its documents and e-invoices say of the seller",
    tag: 'Company',
    reply: Company,
    xmlRoot: 'Company',
    run: async (_i, call) => withNetwork(await call(getCompany, {}), call),
  },
  {
    method: 'put',
    path: '/1.6/company',
    summary: "Replace the caller's own company profile (the whole record; read-only fields may be sent back)",
    tag: 'Company',
    body: { schema: CompanyInput, accepted: Company },
    reply: Company,
    xmlRoot: 'Company',
    run: async ({ body }, call) => withNetwork(await call(updateCompany, body), call),
  },
];

/**
 * The company with the access-point connector's registration of its `peppolId` (issue #23); null when
 * it has none or no connector answers (the company's own data never wait for the connector).
 */
async function withNetwork(company: Company, call: Caller): Promise<Company> {
  if (!company.peppolId) return { ...company, peppolNetwork: null };
  const network = await call(getParticipant, { peppolId: company.peppolId }).catch(() => null);
  return {
    ...company,
    peppolNetwork: network ? { transport: network.transport, registered: network.registered } : null,
  };
}
