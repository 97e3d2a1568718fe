// refine DataProvider. Model resources (src/resources/<model>.ts) go through their declared doors
// (modelDataProvider.ts); the shell's reads through `resources/apiMap.ts`, whose lists are plain
// JSON arrays (total = length), or pages with X-Total-Count where the list declares `pageSize`. GraphQL goes through `custom` with
// `meta.gqlQuery` (+ `meta.gqlVariables`); build that meta with `graphqlMeta`. Other `custom` calls
// send their payload as JSON, or a Blob (a file) as it is; `blobAnswerMeta` asks for the answer
// as a Blob (an image) instead of JSON.
import type { BaseRecord, CrudFilter, CustomParams, DataProvider, MetaQuery } from '@refinedev/core';
import { resourceApi } from '../resources/apiMap.ts';
import type { ResourceApi } from '../resources/apiMap.ts';
import { graphqlRequest, httpExchange, httpRequest } from './httpClient.ts';
import type { HttpMethod } from './httpClient.ts';
import { ApiHttpError } from './httpError.ts';
import { modelResourceOf } from '../resources/modelResources.ts';
import { modelDataProvider } from './modelDataProvider.ts';

const modelApi = (resource: string) => {
  const model = modelResourceOf(resource);
  return model && modelDataProvider(model);
};

function apiOf(resource: string): ResourceApi {
  const api = resourceApi[resource];
  if (!api) throw new ApiHttpError(`No API is declared for the resource "${resource}"`, 0);
  return api;
}

function unsupported(resource: string, action: string): never {
  throw new ApiHttpError(`The resource "${resource}" does not support ${action}`, 0);
}

function filterValue(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** refine filters → query parameters, keeping only the filters the list call declares. */
export function filtersToQuery(api: ResourceApi, filters: CrudFilter[] | undefined): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = {};
  for (const filter of filters ?? []) {
    if (!('field' in filter)) continue;
    const parameter = api.filters?.[filter.field];
    if (parameter) query[parameter] = filterValue(filter.value);
  }
  return query;
}

/** The `meta` of a custom call that runs a GraphQL operation (text) with its variables. */
export function graphqlMeta(query: string, variables?: Record<string, unknown>): MetaQuery {
  return { gqlQuery: query as unknown as MetaQuery['gqlQuery'], gqlVariables: variables };
}

/** The `meta` of a custom call whose answer is a file (an image): `data` is then a Blob. */
export const blobAnswerMeta: MetaQuery = { responseType: 'blob' };

function graphqlTextOf(meta: MetaQuery | undefined): string | undefined {
  const query: unknown = meta?.gqlQuery;
  if (typeof query === 'string') return query;
  const body = (query as { loc?: { source?: { body?: unknown } } } | undefined)?.loc?.source?.body;
  return typeof body === 'string' ? body : undefined;
}

export const dataProvider: DataProvider = {
  getApiUrl: () => '',

  async getList({ resource, filters, pagination, sorters }) {
    const model = modelApi(resource);
    if (model) return (await model.getList(pagination, sorters, filters)) as never;
    const api = apiOf(resource);
    if (!api.list) unsupported(resource, 'lists');
    const query = filtersToQuery(api, filters);
    const paged = api.pageSize && pagination?.mode === 'server';
    if (paged) Object.assign(query, { [api.pageSize!]: String(pagination.pageSize ?? 10), page: String(pagination.currentPage ?? 1) });
    const { body, headers } = await httpExchange<BaseRecord[]>({ path: api.list, query });
    const rows = Array.isArray(body) ? body : [];
    return { data: rows as never[], total: paged ? Number(headers.get('x-total-count') ?? rows.length) : rows.length };
  },

  async getOne({ resource, id }) {
    const model = modelApi(resource);
    if (model) return { data: (await model.getOne(id)) as never };
    const api = apiOf(resource);
    if (!api.one) unsupported(resource, 'reading one record');
    const data = await httpRequest<BaseRecord>({ path: api.one(id) });
    return { data: data as never };
  },

  async getMany({ resource, ids }) {
    const model = modelApi(resource);
    if (model) return { data: (await Promise.all(ids.map((id) => model.getOne(id)))) as never[] };
    const api = apiOf(resource);
    if (!api.list) unsupported(resource, 'reading several records');
    // A list without an ids filter is small and whole (entity types, groups): the records are picked from it.
    const idsParameter = api.filters?.ids;
    const data = await httpRequest<BaseRecord[]>({ path: api.list, query: idsParameter ? { [idsParameter]: ids.join(',') } : undefined });
    const wanted = new Set(ids.map(String));
    return { data: (Array.isArray(data) ? data : []).filter((record) => wanted.has(String(record.id))) as never[] };
  },

  async create({ resource, variables }) {
    const model = modelApi(resource) ?? unsupported(resource, 'creating');
    return { data: (await model.create(variables as Record<string, unknown>)) as never };
  },
  async update({ resource, id, variables }) {
    const model = modelApi(resource) ?? unsupported(resource, 'updating');
    return { data: (await model.update(id, variables as Record<string, unknown>)) as never };
  },
  async deleteOne({ resource, id }) {
    const model = modelApi(resource) ?? unsupported(resource, 'deleting');
    return { data: (await model.deleteOne(id)) as never };
  },

  async custom<TData extends BaseRecord = BaseRecord>({ url, method, payload, query, headers, meta }: CustomParams) {
    const gqlQuery = graphqlTextOf(meta);
    if (gqlQuery) {
      const data = await graphqlRequest<TData>(gqlQuery, meta?.gqlVariables as Record<string, unknown> | undefined);
      return { data };
    }
    const data = await httpRequest<TData>({
      method: method as HttpMethod,
      path: url,
      query: query as Record<string, string | undefined> | undefined,
      body: payload,
      headers: headers as Record<string, string> | undefined,
      blob: meta?.responseType === 'blob',
    });
    return { data };
  },
};
