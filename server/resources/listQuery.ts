// A list query of a model (validated by its list schema) as the page the statements read
// (server/db/resourceQueries.ts): list arguments of the SPEC (kpi_list(group),
// /component-list?board_id) as the filters they name, x-filter fields as conditions, x-search
// fields searched, the sort, and the page (without `page`, up to MAX_PAGE_SIZE rows).
import { idList, INT4_MAX } from '../../src/schemas/bounds.ts';
import { fieldsWith, MAX_PAGE_SIZE, pageSizeOf } from '../../src/schemas/model.ts';
import type { ListPage, RecordFilter } from '../db/resourceQueries.ts';
import { badRequest } from '../errors.ts';
import type { Model } from './resourceModel.ts';

export interface ListQuery { page?: number; per_page?: number; sort?: string; order?: 'asc' | 'desc'; search?: string; [filter: string]: unknown }

/** The page to read, and its number and size as the answer states them. */
export function listPageOf(model: Model, query: ListQuery): { read: ListPage; page: number; per_page: number } {
  const { schema } = model;
  const filtered = { ...query };
  for (const [argument, field] of Object.entries(schema['x-api'].listArguments ?? {})) {
    if (filtered[argument] !== undefined) filtered[field] = filtered[argument];
  }
  const sort = query.sort ?? schema['x-default-sort']?.field ?? 'id';
  const perPage = Math.min(query.per_page ?? (query.page ? pageSizeOf(schema) : MAX_PAGE_SIZE), MAX_PAGE_SIZE);
  const page = query.page ?? 1;
  return {
    read: {
      filters: filtersOf(model, filtered),
      search: query.search ? { columns: fieldsWith(schema, 'x-search').map((field) => model.columns[field]), text: query.search } : undefined,
      sort: model.columns[sort],
      descending: (query.order ?? schema['x-default-sort']?.order ?? 'asc') === 'desc',
      limit: perPage,
      offset: (page - 1) * perPage,
    },
    page,
    per_page: perPage,
  };
}

/** The conditions of the list's filters (declared with x-filter). */
function filtersOf(model: Model, query: ListQuery): RecordFilter[] {
  const filters: RecordFilter[] = [];
  for (const field of fieldsWith(model.schema, 'x-filter')) {
    const schema = model.schema.properties[field];
    const column = model.columns[field];
    const link = model.binding.links?.[field];
    if (schema['x-filter'] === 'range') {
      const from = query[`${field}_from`];
      const to = query[`${field}_to`];
      if (typeof from === 'string' || typeof to === 'string') {
        filters.push({ column, from: typeof from === 'string' ? new Date(from) : undefined, to: typeof to === 'string' ? new Date(to) : undefined });
      }
      continue;
    }
    const value = query[field];
    if (value === undefined || value === '') continue;
    const text = String(value);
    const ids = () => idList(text) ?? (() => { throw badRequest('VALIDATION', `${field} must hold ids from 1 to ${INT4_MAX}`, field); })();
    if (link) {
      filters.push({ link, anyOf: ids() });
    } else if (schema.type === 'boolean') {
      if (text !== 'true' && text !== 'false') throw badRequest('VALIDATION', `${field} must be true or false`, field);
      filters.push({ column, equals: text === 'true' });
    } else if (schema.enum) {
      filters.push({ column, anyOf: text.split(',') });
    } else if (schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'))) {
      filters.push({ column, anyOf: ids() });
    } else {
      filters.push({ column, equals: text });
    }
  }
  return filters;
}
