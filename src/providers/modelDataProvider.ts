// The data provider's part for model resources (src/resources/modelResources.ts): each action
// goes through the door the model's schema declares (x-api) — a REST path of SPEC §7 where there
// is one, else the model's GraphQL operation. Lists page, sort, filter and search on the server.
import type { BaseRecord, CrudFilter, CrudSort, Pagination } from '@refinedev/core';
import { graphqlDocuments } from '../schemas/graphqlOperations.ts';
import type { ModelResource } from '../resources/defineResource.ts';
import { i18n } from '../i18n/i18n.ts';
import { graphqlRequest, httpExchange, httpRequest } from './httpClient.ts';
import { ApiHttpError } from './httpError.ts';

/** The list's refine state → the query of the list door (page, per_page, sort, order, search, filters). */
export function listQuery(pagination: Pagination | undefined, sorters: CrudSort[] | undefined, filters: CrudFilter[] | undefined) {
  const query: Record<string, string | number | undefined> = {};
  if (pagination?.mode !== 'off') {
    query.page = pagination?.currentPage ?? 1;
    query.per_page = pagination?.pageSize ?? 20;
  }
  const [sorter] = sorters ?? [];
  if (sorter) Object.assign(query, { sort: sorter.field, order: sorter.order });
  for (const filter of filters ?? []) {
    if (!('field' in filter)) continue;
    const value = Array.isArray(filter.value) ? filter.value.join(',') : filter.value;
    if (value === undefined || value === null || value === '') continue;
    // a time range (antd RangePicker) arrives as [from, to] with the field's name
    if (filter.operator === 'gte') query[`${filter.field}_from`] = String(value);
    else if (filter.operator === 'lte') query[`${filter.field}_to`] = String(value);
    else query[filter.field] = String(value);
  }
  return query;
}

/** Server field errors name the body's path (`input.definition.expression`); forms name the field. */
function withFormFieldNames(error: unknown): unknown {
  if (!(error instanceof ApiHttpError)) return error;
  const errors = Object.fromEntries(Object.entries(error.errors).map(([field, message]) => [field.replace(/^(input|args)\./, ''), message]));
  return new ApiHttpError(error.message, error.statusCode, error.code, errors);
}

async function guarded<T>(work: () => Promise<T>, prefix?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const named = withFormFieldNames(error);
    if (prefix && named instanceof ApiHttpError) named.message = `${prefix}: ${named.message}`;
    throw named;
  }
}

export function modelDataProvider(resource: ModelResource) {
  const rest = resource.schema['x-api'].rest ?? {};
  const documents = graphqlDocuments(resource.schema);
  const { names } = documents;
  const paged = resource.schema['x-api'].pagedList;

  return {
    getList: (pagination?: Pagination, sorters?: CrudSort[], filters?: CrudFilter[]) => guarded(async () => {
      const query = listQuery(pagination, sorters, filters);
      if (rest.list) {
        const { body, headers } = await httpExchange<BaseRecord[]>({ path: rest.list, query });
        const rows = Array.isArray(body) ? body : [];
        return { data: rows, total: Number(headers.get('x-total-count') ?? rows.length) };
      }
      const data = await graphqlRequest<Record<string, unknown>>(documents.list(query), query);
      const answer = data[names.list];
      if (paged) {
        const page = answer as { data: BaseRecord[]; meta: { pagination: { total: number } } };
        return { data: page.data, total: page.meta.pagination.total };
      }
      const rows = answer as BaseRecord[];
      return { data: rows, total: rows.length };
    }, resource.listErrorPrefix),

    getOne: (id: string | number) => guarded(async () => {
      const data = await graphqlRequest<Record<string, BaseRecord | null>>(documents.one({ id }), { id });
      const record = data[names.one];
      if (!record) throw new ApiHttpError(i18n.t('errors.notFound'), 404, 'NOT_FOUND');
      return record;
    }),

    create: (variables: Record<string, unknown>) => guarded(async () => {
      if (rest.create) return httpRequest<BaseRecord>({ method: 'post', path: rest.create, body: { input: variables } });
      return (await graphqlRequest<Record<string, BaseRecord>>(documents.create(variables), variables))[names.create];
    }),

    update: (id: string | number, variables: Record<string, unknown>) => guarded(async () => {
      const input = { ...variables, id: Number(id) };
      if (rest.update) return httpRequest<BaseRecord>({ method: 'post', path: rest.update, body: { input } });
      return (await graphqlRequest<Record<string, BaseRecord>>(documents.update(input), input))[names.update];
    }),

    deleteOne: (id: string | number) => guarded(async () => {
      if (rest.delete) return httpRequest<BaseRecord>({ method: 'post', path: rest.delete, body: { id: Number(id) } });
      const answer = (await graphqlRequest<Record<string, DeleteAnswer>>(documents.delete({ id }), { id }))[names.delete];
      if (!answer.deleted) throw deleteRefused(answer);
      return answer as unknown as BaseRecord;
    }),
  };
}

interface DeleteAnswer { id: string; deleted: boolean; childrenIds: string[]; watcherNames: string[]; schedulerNames: string[] }

/** SPEC §8: an entity still used is not deleted; the message names what uses it. */
function deleteRefused(answer: DeleteAnswer): ApiHttpError {
  const names = [...answer.watcherNames, ...answer.schedulerNames];
  const detail = names.length ? ` (${names.join(', ')})` : '';
  return new ApiHttpError(`${i18n.t('apiErrors.ENTITY_IN_USE')}${detail}`, 409, 'ENTITY_IN_USE');
}
