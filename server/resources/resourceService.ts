// The generic service behind every model (src/schemas/models.ts): tenant-scoped list, get,
// create, update and delete, with the model's access rules, field permissions, owner scope,
// audit (last_updated_by, updated_at) and rules. REST routes and GraphQL resolvers are thin
// doors to it. Row-level security scopes every statement to the caller's tenant; the explicit
// tenant condition below is the second lock. After each commit the change goes on the live bus.
import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { modulesGranted, permissionHeldByName } from '../../src/schemas/modules.ts';
import {
  accessRule, createInputSchema, fieldsWith, listQuerySchema, MAX_PAGE_SIZE, pageSizeOf, updateInputSchema,
  type Action, type FieldSchema, type ModelSchema,
} from '../../src/schemas/model.ts';
import { validated } from '../schemaValidator.ts';
import type { Database, Tx } from '../db/database.ts';
import { violatedUniqueConstraint } from '../db/databaseErrors.ts';
import { ApiError, badRequest, forbidden, notFound } from '../errors.ts';
import { hasPermission, type Caller } from '../services/caller.ts';
import type { ModelBinding } from './bindings.ts';
import { fieldWithoutColumn } from './modelStorageError.ts';
import { checkReferences } from './referenceCheck.ts';
import { registeredModel } from './registry.ts';
import { idList, INT4_MAX } from '../../src/schemas/bounds.ts';
import type { ResourceChange } from '../live/resourceEvents.ts';
import { filtersKey, type TenantReadCache } from '../services/tenantReadCache.ts';

export type RecordData = Record<string, unknown>;
export interface ListQuery { page?: number; per_page?: number; sort?: string; order?: 'asc' | 'desc'; search?: string; [filter: string]: unknown }
export interface ListResult { rows: RecordData[]; total: number; page: number; per_page: number }

export const RECORD_NOT_FOUND = 'Not found';

/** Everything the service derives once per model. */
interface Model {
  name: string;
  schema: ModelSchema;
  binding: ModelBinding;
  table: PgTable;
  /** field → column (plain fields) */
  columns: Record<string, PgColumn>;
  /** flattened object field → its properties' columns */
  flattened: Record<string, Record<string, PgColumn>>;
  selection: Record<string, PgColumn | SQL>;
  tenantColumn: PgColumn;
  idColumn: PgColumn;
  ownerColumn?: PgColumn;
  createSchema: object;
  updateSchema: object;
  listSchema: object;
}

function columnsByName(table: PgTable): Map<string, PgColumn> {
  return new Map(Object.values(getTableColumns(table)).map((column) => [column.name, column as PgColumn]));
}

function describeModel(name: string): Model {
  const { schema, binding } = registeredModel(name);
  const byName = columnsByName(binding.table);
  const columns: Record<string, PgColumn> = {};
  const flattened: Record<string, Record<string, PgColumn>> = {};
  const selection: Record<string, PgColumn | SQL> = {};
  for (const [field, fieldSchema] of Object.entries(schema.properties)) {
    const link = binding.links?.[field];
    const computed = binding.computed?.[field];
    if (link) {
      // the outer id spelled out: drizzle writes a lone column of a one-table select without its table
      selection[field] = sql`ARRAY(SELECT ${link.other} FROM ${link.table} WHERE ${link.own} = ${sql.raw(`"${getTableName(binding.table)}"."id"`)} ORDER BY 1)`;
    } else if (computed) {
      selection[field] = computed(binding.table);
    } else if (binding.flattened?.includes(field)) {
      flattened[field] = {};
      for (const property of Object.keys(fieldSchema.properties ?? {})) {
        const column = byName.get(property);
        if (!column) throw fieldWithoutColumn(name, `${field}.${property}`, getTableName(binding.table));
        flattened[field][property] = column;
        selection[`${field}.${property}`] = column;
      }
    } else {
      const column = byName.get(field);
      if (!column) throw fieldWithoutColumn(name, field, getTableName(binding.table));
      columns[field] = column;
      selection[field] = column;
    }
  }
  const owner = schema['x-owner'];
  return {
    name, schema, binding, table: binding.table, columns, flattened, selection,
    tenantColumn: byName.get('tenant_id')!, idColumn: byName.get('id')!, ownerColumn: owner ? byName.get(owner) : undefined,
    createSchema: createInputSchema(schema), updateSchema: updateInputSchema(schema), listSchema: listQuerySchema(schema),
  };
}

const models = new Map<string, Model>();
export function modelOf(name: string): Model {
  let model = models.get(name);
  if (!model) models.set(name, (model = describeModel(name)));
  return model;
}

// ---- access ---------------------------------------------------------------------------------

export function authorize(caller: Caller, schema: ModelSchema, action: Action): void {
  const rule = accessRule(schema, action);
  if (!rule) throw new ApiError(405, 'NOT_SUPPORTED', `${schema.$id} does not support ${action}`);
  if (!modulesGranted(caller.modules, rule.modules)) throw forbidden(`the module ${rule.modules!.join(' or ')}`);
  if (rule.permission && !hasPermission(caller, rule.permission)) throw forbidden(rule.permission);
}

/** Refuses written fields and values the caller's permissions do not cover. */
function checkWritePermissions(caller: Caller, properties: Readonly<Record<string, FieldSchema>>, data: RecordData, path = ''): void {
  for (const [field, value] of Object.entries(data)) {
    const schema = properties[field];
    if (!schema || value === undefined) continue;
    const fieldPath = path ? `${path}.${field}` : field;
    if (schema['x-permission'] && !permissionHeldByName(caller.permissions, schema['x-permission'])) throw forbidden(schema['x-permission']);
    const valuePermission = typeof value === 'string' ? schema['x-value-permissions']?.[value] : undefined;
    if (valuePermission && !permissionHeldByName(caller.permissions, valuePermission)) {
      throw new ApiError(403, 'FORBIDDEN', `${fieldPath} "${value}" needs the permission ${valuePermission}.`, fieldPath, { permission: valuePermission });
    }
    if (schema.properties && value && typeof value === 'object' && !Array.isArray(value)) {
      checkWritePermissions(caller, schema.properties, value as RecordData, fieldPath);
    }
  }
}

/** The record as this caller may see it: fields guarded by a permission it lacks are left out. */
export function visibleRecord(caller: Caller, schema: ModelSchema, record: RecordData): RecordData {
  const hidden = fieldsWith(schema, 'x-permission').filter((field) => !permissionHeldByName(caller.permissions, schema.properties[field]['x-permission']!));
  if (!hidden.length) return record;
  return Object.fromEntries(Object.entries(record).filter(([field]) => !hidden.includes(field)));
}

// ---- rows ↔ records -------------------------------------------------------------------------

const allowsNull = (schema: FieldSchema) => schema.type === undefined || schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));

function toRecord(model: Model, row: RecordData): RecordData {
  const record: RecordData = {};
  for (const [key, raw] of Object.entries(row)) {
    const value = raw instanceof Date ? raw.toISOString() : raw;
    const dot = key.indexOf('.');
    if (dot > 0) {
      const field = key.slice(0, dot);
      record[field] = { ...(record[field] as RecordData | undefined), ...(value === null ? {} : { [key.slice(dot + 1)]: value }) };
    } else if (value !== null || allowsNull(model.schema.properties[key])) {
      record[key] = value;
    }
  }
  return record;
}

/**
 * Whether an update carries a stored field into the record it checks and writes. Read-only fields
 * are the server's. A field guarded by a permission (the device's access token) is kept as stored
 * unless the patch names it: it is a secret the caller may not even see, and one chosen under an
 * earlier rule (a shorter token) must not make the entity impossible to edit.
 */
const keptByUpdate = (schema: FieldSchema | undefined, patched: boolean) => !schema?.readOnly && (patched || !schema?.['x-permission']);

/** Column values (drizzle keys) of the writable plain and flattened fields present in `record`. */
function toColumns(model: Model, record: RecordData): Record<string, unknown> {
  const keys = Object.fromEntries(Object.entries(getTableColumns(model.table)).map(([key, column]) => [column.name, key]));
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record)) {
    if (model.schema.properties[field]?.readOnly) continue;
    if (model.columns[field]) values[keys[model.columns[field].name]] = columnValue(model.columns[field], value);
    else if (model.flattened[field]) {
      for (const [property, column] of Object.entries(model.flattened[field])) values[keys[column.name]] = (value as RecordData)?.[property] ?? null;
    }
  }
  return values;
}

/** A field's value as its column takes it (timestamp columns take Date objects). */
const columnValue = (column: PgColumn, value: unknown) =>
  (column.columnType === 'PgTimestamp' && typeof value === 'string' ? new Date(value) : value ?? null);

const columnKey = (model: Model, columnName: string) =>
  Object.entries(getTableColumns(model.table)).find(([, column]) => column.name === columnName)?.[0];

/** Runs a write; a unique constraint the model declares (a device's access token) becomes its 4xx answer. */
export async function refusingConflicts<T>(model: Model, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint = violatedUniqueConstraint(error);
    const conflict = constraint ? model.binding.conflicts?.[constraint] : undefined;
    throw conflict ? conflict() : error;
  }
}

// ---- the service ----------------------------------------------------------------------------

export interface ResourceServiceOptions {
  /** Called after each committed change (live bus, caches). */
  onChange(tenantId: string, change: ResourceChange): void;
  /** Where lists of models bound with `cached` are kept until their tenant's data changes. */
  cache?: TenantReadCache;
}

/** A list page as JSON text (what REST sends as it is) and the total. */
export interface ListJson { json: string; total: number; page: number; per_page: number }

/** A record of a batch refused: its place (1-based), the field (without the `input.` prefix) and why. */
const refusalOf = (row: number, error: ApiError) =>
  ({ row, field: (error.items[0].field ?? '').replace(/^input\.?/, ''), message: error.items[0].message });

export function resourceService(db: Database, options: ResourceServiceOptions) {
  const scope = (model: Model, caller: Caller): SQL[] => {
    const conditions: SQL[] = [eq(model.tenantColumn, caller.tenantId)];
    if (model.ownerColumn) conditions.push(eq(model.ownerColumn, caller.userId));
    for (const [name, value] of Object.entries(model.binding.fixed ?? {})) {
      const key = columnKey(model, name)!;
      conditions.push(eq(getTableColumns(model.table)[key] as PgColumn, value));
    }
    return conditions;
  };

  const findRecord = async (tx: Tx, model: Model, caller: Caller, id: number): Promise<RecordData> => {
    const [row] = await tx.select(model.selection as never).from(model.table).where(and(eq(model.idColumn, id), ...scope(model, caller)));
    if (!row) throw notFound(model.name === 'entity' ? 'Entity not found' : RECORD_NOT_FOUND);
    return toRecord(model, row as RecordData);
  };

  const writeLinks = async (tx: Tx, model: Model, caller: Caller, id: number, record: RecordData, replace: boolean) => {
    for (const [field, link] of Object.entries(model.binding.links ?? {})) {
      if (!(field in record)) continue;
      if (replace) await tx.delete(link.table).where(eq(link.own, id));
      const ids = (record[field] ?? []) as number[];
      if (!ids.length) continue;
      const ownKey = columnKey({ table: link.table } as Model, link.own.name)!;
      const otherKey = columnKey({ table: link.table } as Model, link.other.name)!;
      await tx.insert(link.table).values(ids.map((other) => ({ tenantId: caller.tenantId, [ownKey]: id, [otherKey]: other })) as never);
    }
  };

  /** Server-set columns of a write: audit fields, owner, fixed values. */
  const auditColumns = (model: Model, caller: Caller, creating: boolean): Record<string, unknown> => {
    const byName = columnsByName(model.table);
    const values: Record<string, unknown> = {};
    const set = (name: string, value: unknown) => {
      if (byName.has(name)) values[columnKey(model, name)!] = value;
    };
    set('last_updated_by', caller.userId);
    if (!creating) set('updated_at', new Date());
    if (creating) {
      set('tenant_id', caller.tenantId);
      if (model.schema['x-owner']) set(model.schema['x-owner'], caller.userId);
      for (const [name, value] of Object.entries(model.binding.fixed ?? {})) set(name, value);
    }
    return values;
  };

  /** Inserts one checked record with its links and rules, in `tx`; answers it as stored. */
  const insertRecord = async (tx: Tx, model: Model, caller: Caller, record: RecordData) => {
    await checkReferences(tx, model.binding, caller.tenantId, record);
    const columns = { ...toColumns(model, record), ...auditColumns(model, caller, true) };
    await model.binding.rules?.beforeWrite?.({ tx, caller }, record, columns);
    const [{ id }] = await refusingConflicts(model, () => tx.insert(model.table).values(columns as never).returning({ id: model.idColumn })) as { id: number }[];
    await writeLinks(tx, model, caller, id, record, false);
    await model.binding.rules?.afterWrite?.({ tx, caller }, id, record);
    return findRecord(tx, model, caller, id);
  };

  /** A create input validated by the model's schema, its fields' permissions checked. */
  const checkedInput = (caller: Caller, model: Model, input: RecordData) => {
    const record = validated<RecordData>(model.createSchema, input, 'input');
    checkWritePermissions(caller, model.schema.properties, record);
    return record;
  };

  const publish = (caller: Caller, model: Model, action: ResourceChange['action'], id: number, record: RecordData | null, removed?: RecordData) =>
    options.onChange(caller.tenantId, { resource: model.name, action, id, record, removed, owner: model.schema['x-owner'] ? caller.userId : undefined });

  const queryList = async (caller: Caller, model: Model, query: ListQuery): Promise<ListResult> => {
    // list arguments of the SPEC (kpi_list(group), /component-list?board_id) name a filter field
    for (const [argument, field] of Object.entries(model.schema['x-api'].listArguments ?? {})) {
      if (query[argument] !== undefined) query[field] = query[argument];
    }
    const conditions = [...scope(model, caller), ...filterConditions(model, query)];
    if (query.search) {
      const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const searched = fieldsWith(model.schema, 'x-search').map((field) => sql`${model.columns[field]}::text ILIKE ${pattern}`);
      conditions.push(sql`(${sql.join(searched, sql` OR `)})`);
    }
    const sort = query.sort ?? model.schema['x-default-sort']?.field ?? 'id';
    const direction = (query.order ?? model.schema['x-default-sort']?.order ?? 'asc') === 'desc' ? desc : asc;
    const perPage = Math.min(query.per_page ?? (query.page ? pageSizeOf(model.schema) : MAX_PAGE_SIZE), MAX_PAGE_SIZE);
    const page = query.page ?? 1;
    return db.tenantTx(caller.tenantId, async (tx) => {
      const where = and(...conditions);
      const rows = await tx.select(model.selection as never).from(model.table).where(where)
        .orderBy(direction(model.columns[sort]), direction(model.idColumn)).limit(perPage).offset((page - 1) * perPage);
      const [{ total }] = await tx.select({ total: count() }).from(model.table).where(where);
      return { rows: rows.map((row) => visibleRecord(caller, model.schema, toRecord(model, row as RecordData))), total, page, per_page: perPage };
    });
  };

  return {
    async list(caller: Caller, name: string, rawQuery: ListQuery): Promise<ListResult> {
      const { json, ...page } = await this.listJson(caller, name, rawQuery);
      return { rows: JSON.parse(json), ...page };
    },

    /**
     * A list page as JSON text. Models bound with `cached` (tables whose triggers announce every
     * change, migration 0003) keep it per tenant, query and what the caller may see, until the
     * tenant's data changes: the watcher list is polled by every open app.
     */
    async listJson(caller: Caller, name: string, rawQuery: ListQuery): Promise<ListJson> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'read');
      const query = validated<ListQuery>(model.listSchema, rawQuery, 'querystring');
      const cache = model.binding.cached ? options.cache : undefined;
      const hidden = fieldsWith(model.schema, 'x-permission').filter((field) => !permissionHeldByName(caller.permissions, model.schema.properties[field]['x-permission']!));
      const key = `list:${name}:${model.ownerColumn ? caller.userId : ''}:${hidden.join(',')}:${filtersKey(query)}`;
      const hit = cache?.get(caller.tenantId, key);
      if (hit !== undefined) return JSON.parse(hit) as ListJson;
      const version = cache?.version(caller.tenantId) ?? 0;
      const { rows, ...page } = await queryList(caller, model, query);
      const answer: ListJson = { ...page, json: JSON.stringify(rows) };
      cache?.set(caller.tenantId, key, JSON.stringify(answer), version);
      return answer;
    },

    async get(caller: Caller, name: string, id: number): Promise<RecordData> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'read');
      const record = await db.tenantTx(caller.tenantId, (tx) => findRecord(tx, model, caller, id));
      return visibleRecord(caller, model.schema, record);
    },

    async create(caller: Caller, name: string, input: RecordData): Promise<RecordData> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'create');
      const record = checkedInput(caller, model, input);
      const created = await db.tenantTx(caller.tenantId, (tx) => insertRecord(tx, model, caller, record));
      publish(caller, model, 'created', created.id as number, created);
      return visibleRecord(caller, model.schema, created);
    },

    /**
     * Several records in one transaction: every one is checked first, and when any is refused
     * (or `dryRun`) nothing is written; the refusals name the record (1-based) and the field.
     */
    async createMany(caller: Caller, name: string, inputs: RecordData[], dryRun: boolean): Promise<{ created: number; refused: { row: number; field: string; message: string }[] }> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'create');
      const refused: { row: number; field: string; message: string }[] = [];
      const records = inputs.map((input, index) => {
        try {
          return checkedInput(caller, model, input);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          refused.push(refusalOf(index + 1, error));
          return undefined;
        }
      });
      if (refused.length || dryRun) return { created: 0, refused };
      try {
        const created = await db.tenantTx(caller.tenantId, async (tx) => {
          const rows: RecordData[] = [];
          for (const [index, record] of records.entries()) {
            try {
              rows.push(await insertRecord(tx, model, caller, record!));
            } catch (error) {
              if (error instanceof ApiError) throw Object.assign(error, { row: index + 1 });
              throw error;
            }
          }
          return rows;
        });
        for (const record of created) publish(caller, model, 'created', record.id as number, record);
        return { created: created.length, refused: [] };
      } catch (error) {
        const row = (error as { row?: number }).row;
        if (!(error instanceof ApiError) || row === undefined) throw error;
        return { created: 0, refused: [refusalOf(row, error)] };
      }
    },

    async update(caller: Caller, name: string, input: RecordData): Promise<RecordData> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'update');
      const { id, ...patch } = validated<RecordData>(model.updateSchema, input, 'input');
      checkWritePermissions(caller, model.schema.properties, patch);
      const updated = await db.tenantTx(caller.tenantId, async (tx) => {
        const previous = await findRecord(tx, model, caller, id as number);
        const writable = Object.fromEntries(Object.entries(previous).filter(([field]) => keptByUpdate(model.schema.properties[field], field in patch)));
        // the whole record after the change must satisfy the model (required fields, if/then rules)
        const record = validated<RecordData>(model.createSchema, { ...writable, ...patch }, 'input');
        await checkReferences(tx, model.binding, caller.tenantId, patch);
        const columns = { ...toColumns(model, record), ...auditColumns(model, caller, false) };
        await model.binding.rules?.beforeWrite?.({ tx, caller }, record, columns);
        await refusingConflicts(model, () => tx.update(model.table).set(columns as never).where(and(eq(model.idColumn, id as number), ...scope(model, caller))));
        await writeLinks(tx, model, caller, id as number, patch, true);
        await model.binding.rules?.afterWrite?.({ tx, caller }, id as number, record, previous);
        return findRecord(tx, model, caller, id as number);
      });
      publish(caller, model, 'updated', id as number, updated);
      return visibleRecord(caller, model.schema, updated);
    },

    async remove(caller: Caller, name: string, id: number): Promise<{ id: number }> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'delete');
      const removed = await db.tenantTx(caller.tenantId, async (tx) => {
        const record = await findRecord(tx, model, caller, id);
        await model.binding.rules?.beforeDelete?.({ tx, caller }, id, record);
        await tx.delete(model.table).where(and(eq(model.idColumn, id), ...scope(model, caller)));
        return record;
      });
      publish(caller, model, 'deleted', id, null, removed);
      return { id };
    },
  };
}
export type ResourceService = ReturnType<typeof resourceService>;

/** Conditions of the list's filters (declared with x-filter). */
function filterConditions(model: Model, query: ListQuery): SQL[] {
  const conditions: SQL[] = [];
  for (const field of fieldsWith(model.schema, 'x-filter')) {
    const schema = model.schema.properties[field];
    const link = model.binding.links?.[field];
    if (schema['x-filter'] === 'range') {
      const from = query[`${field}_from`];
      const to = query[`${field}_to`];
      if (typeof from === 'string') conditions.push(gte(model.columns[field], new Date(from)));
      if (typeof to === 'string') conditions.push(lte(model.columns[field], new Date(to)));
      continue;
    }
    const value = query[field];
    if (value === undefined || value === '') continue;
    const text = String(value);
    const ids = () => idList(text) ?? (() => { throw badRequest('VALIDATION', `${field} must hold ids from 1 to ${INT4_MAX}`, field); })();
    if (link) {
      conditions.push(sql`EXISTS (SELECT 1 FROM ${link.table} WHERE ${link.own} = ${model.idColumn} AND ${inArray(link.other, ids())})`);
    } else if (schema.type === 'boolean') {
      if (text === 'true' || text === 'false') conditions.push(eq(model.columns[field], text === 'true'));
      else throw badRequest('VALIDATION', `${field} must be true or false`, field);
    } else if (schema.enum) {
      conditions.push(inArray(model.columns[field], text.split(',')));
    } else if (schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'))) {
      conditions.push(inArray(model.columns[field], ids()));
    } else {
      conditions.push(eq(model.columns[field], text));
    }
  }
  return conditions;
}
