// A model's tables derived from its JSON Schema (src/schemas/<model>.ts): one column per field
// (a flattened object field gives one per property), typed, nullable, defaulted and checked as
// the schema says; a link table per id-list field stored as rows; an index per filtered or
// sorted column; the tenant-isolation policy. server/db/schema.ts declares each model's table
// with `modelTables`, adding only what the schema cannot say (server-kept columns, foreign keys);
// drizzle-kit reads the result and `npm run db:generate` writes the migration.
import { sql, type SQL } from 'drizzle-orm';
import {
  boolean, check, doublePrecision, index, integer, jsonb, pgPolicy, pgRole, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid,
  type AnyPgColumn, type CheckBuilder, type IndexBuilder, type PgColumn, type PgColumnBuilderBase, type PgTable, type PgTableWithColumns,
} from 'drizzle-orm/pg-core';
import { escapeLiteral } from 'pg';
import { allowsNull, type FieldSchema, type ModelSchema } from '../../src/schemas/model.ts';

/** The role the application queries as; created by migration 0001. */
const appRole = pgRole('terrasight_app').existing();

/** Row-level security: the role sees and writes only rows of the tenant its transaction names. */
export const tenantIsolation = (column = 'tenant_id') => {
  const own = sql.raw(`${column} = current_tenant_id()`);
  return pgPolicy('tenant_isolation', { as: 'permissive', for: 'all', to: appRole, using: own, withCheck: own });
};

/** A table's own tenant column, referencing the tenant. */
export const tenantColumn = (tenants: () => AnyPgColumn) => uuid('tenant_id').notNull().references(tenants, { onDelete: 'cascade' });

type AnyTable = PgTableWithColumns<any>;
type ColumnBuilder = PgColumnBuilderBase & {
  notNull(): ColumnBuilder; default(value: unknown): ColumnBuilder; defaultNow(): ColumnBuilder;
  references(to: () => AnyPgColumn, actions?: { onDelete?: 'cascade' | 'set null' }): ColumnBuilder;
};

/** An id-list field kept as rows of a link table (own id, other id). */
export interface LinkStorage {
  /** The table whose ids the field holds. */
  target: () => AnyTable;
  /** The link table's name; `<model>_<field without _ids>s` unless given. */
  table?: string;
  /** Each other id in one row at most (`<link table>_<other>_unique`): a lamp follows one lighting profile. */
  uniqueOther?: boolean;
}

export interface ModelStorage {
  /** The table's name. */
  table: string;
  tenants: () => AnyPgColumn;
  /** Columns the server keeps that are not fields of the schema (created_at, a board's kind, …). */
  serverColumns?: Record<string, PgColumnBuilderBase>;
  /** Object fields whose properties are columns of their own (entity.interface). */
  flattened?: readonly string[];
  /** Id-list fields kept in link tables. */
  links?: Record<string, LinkStorage>;
  /**
   * Read-only fields computed in SQL beside the row (from other tables), not kept in a column
   * (`table` is the model's table, `reader` the reading user's id: what the reader may do with it).
   */
  computed?: Record<string, (table: PgTable, reader: SQL) => SQL>;
  /** What a field's column needs beyond the schema: a foreign key, a generated default, a wider id. */
  refine?: Record<string, (column: ColumnBuilder) => PgColumnBuilderBase>;
  /** Indexes (and checks) the schema cannot state (a tree path, a unique token, a board's kind). */
  indexes?: (table: any) => (IndexBuilder | CheckBuilder)[];
}

export interface ModelLink { table: PgTable; own: PgColumn; other: PgColumn; target: () => AnyTable }

const typesOf = (schema: FieldSchema): string[] => (schema.type === undefined ? [] : ([] as string[]).concat(schema.type as string | string[]));
const snakeToCamel = (name: string) => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** The SQL literal of a schema default for a column of `sqlType`. */
function defaultLiteral(value: unknown, sqlType: string): SQL {
  if (sqlType === 'jsonb') return sql.raw(`${escapeLiteral(JSON.stringify(value))}::jsonb`);
  if (sqlType.endsWith('[]')) {
    const items = (value as unknown[]).map((item) => (typeof item === 'number' ? String(item) : `"${String(item).replace(/["\\]/g, '\\$&')}"`));
    return sql.raw(`${escapeLiteral(`{${items.join(',')}}`)}::${sqlType}`);
  }
  return sql.raw(typeof value === 'string' ? escapeLiteral(value) : String(value));
}

/** The SQL type of a field's column, as the schema types it. */
function sqlTypeOf(schema: FieldSchema): string {
  const types = typesOf(schema).filter((type) => type !== 'null');
  const only = types.length === 1 ? types[0] : undefined;
  const itemType = schema.items?.type;
  if (only === 'string' && (schema.format === 'date-time' || schema['x-widget'] === 'datetime')) return 'timestamptz';
  if (only === 'string' && schema.format === 'uuid') return 'uuid';
  if (only === 'string') return 'text';
  if (only === 'integer') return 'integer';
  if (only === 'number') return 'double precision';
  if (only === 'boolean') return 'boolean';
  if (only === 'array' && itemType === 'integer') return 'integer[]';
  if (only === 'array' && itemType === 'string') return 'text[]';
  return 'jsonb';
}

const COLUMN_OF_TYPE: Record<string, (name: string) => unknown> = {
  timestamptz: (name) => timestamp(name, { withTimezone: true }),
  uuid: (name) => uuid(name),
  text: (name) => text(name),
  integer: (name) => integer(name),
  'double precision': (name) => doublePrecision(name),
  boolean: (name) => boolean(name),
  'integer[]': (name) => integer(name).array(),
  'text[]': (name) => text(name).array(),
  jsonb: (name) => jsonb(name),
};

/** The column that keeps a field: its type, whether it may be null, its default. */
function fieldColumn(name: string, schema: FieldSchema, required: boolean): ColumnBuilder {
  const sqlType = sqlTypeOf(schema);
  let builder = COLUMN_OF_TYPE[sqlType](name) as ColumnBuilder;
  const structured = sqlType === 'jsonb' || sqlType.endsWith('[]');
  // a value is always there when the schema requires it, gives a default or the server keeps it;
  // an object or a list is never null (an empty one stands for none)
  if (allowsNull(schema) || !(required || structured || schema.readOnly || schema.default !== undefined)) {
    return schema.default === undefined ? builder : builder.default(defaultLiteral(schema.default, sqlType));
  }
  builder = builder.notNull();
  if (schema.default !== undefined) return builder.default(defaultLiteral(schema.default, sqlType));
  if (structured) return builder.default(defaultLiteral(typesOf(schema).includes('array') ? [] : {}, sqlType));
  if (sqlType === 'timestamptz') return builder.defaultNow();
  return builder;
}

/** The checks a written field's column carries: its enumeration, its bounds, its length. */
function fieldCheck(name: string, schema: FieldSchema): SQL | undefined {
  if (schema.readOnly) return undefined;
  const column = `"${name}"`;
  const checks: string[] = [];
  const sqlType = sqlTypeOf(schema);
  if (sqlType === 'text' && schema.enum) checks.push(`${column} IN (${schema.enum.map((value) => escapeLiteral(String(value))).join(', ')})`);
  else if (sqlType === 'text' && schema.maxLength !== undefined) checks.push(`char_length(${column}) <= ${schema.maxLength}`);
  if (sqlType === 'integer' || sqlType === 'double precision') {
    if (schema.minimum !== undefined) checks.push(`${column} >= ${schema.minimum}`);
    if (schema.maximum !== undefined) checks.push(`${column} <= ${schema.maximum}`);
  }
  return checks.length ? sql.raw(checks.join(' AND ')) : undefined;
}

const isScalar = (schema: FieldSchema) => !['jsonb', 'integer[]', 'text[]'].includes(sqlTypeOf(schema));

/**
 * The model's table and link tables, derived from its schema and `storage`. Every column is keyed
 * by its camelCase name (`is_gateway` → `isGateway`).
 */
export function modelTables(schema: ModelSchema, storage: ModelStorage): Pick<ModelStorage, 'flattened' | 'computed'> & { table: AnyTable; links: Record<string, ModelLink> } {
  const columns: Record<string, PgColumnBuilderBase> = { tenantId: tenantColumn(storage.tenants) };
  const checks: [string, SQL][] = [];
  const indexed: string[] = [];
  const addField = (name: string, fieldSchema: FieldSchema, required: boolean) => {
    const refine = storage.refine?.[name];
    const column = fieldColumn(name, fieldSchema, required);
    if (name === 'id' && !refine) columns.id = integer('id').primaryKey().generatedAlwaysAsIdentity();
    else columns[snakeToCamel(name)] = refine ? refine(column) : column;
    const condition = fieldCheck(name, fieldSchema);
    if (condition) checks.push([`${storage.table}_${name}_check`, condition]);
  };
  for (const [field, fieldSchema] of Object.entries(schema.properties)) {
    // the tenant column is the table's own (a model may show it, as a board's tenant_id)
    if (storage.links?.[field] || storage.computed?.[field] || field === 'tenant_id') continue;
    if (storage.flattened?.includes(field)) {
      for (const [property, propertySchema] of Object.entries(fieldSchema.properties ?? {})) addField(property, propertySchema, !!fieldSchema.required?.includes(property));
      continue;
    }
    addField(field, fieldSchema, !!schema.required?.includes(field));
    if (field !== 'id' && (fieldSchema['x-filter'] || fieldSchema['x-sort']) && isScalar(fieldSchema)) indexed.push(field);
  }
  for (const [key, column] of Object.entries(storage.serverColumns ?? {})) columns[key] = column;

  const table = pgTable(storage.table, columns, (t) => [
    index(`${storage.table}_tenant_idx`).on(t.tenantId),
    ...indexed.map((field) => index(`${storage.table}_${field}_idx`).on(t.tenantId, t[snakeToCamel(field)])),
    ...(storage.indexes?.(t) ?? []),
    ...checks.map(([name, condition]) => check(name, condition)),
    tenantIsolation(),
  ]) as AnyTable;

  const own = `${schema.$id}_id`;
  const links: Record<string, ModelLink> = {};
  for (const [field, link] of Object.entries(storage.links ?? {})) {
    const other = field.replace(/_ids$/, '_id');
    const linkName = link.table ?? `${schema.$id}_${field.replace(/_ids$/, 's')}`;
    const linkTable = pgTable(linkName, {
      tenantId: tenantColumn(storage.tenants),
      [snakeToCamel(own)]: integer(own).notNull().references(() => table.id, { onDelete: 'cascade' }),
      [snakeToCamel(other)]: integer(other).notNull().references(() => link.target().id, { onDelete: 'cascade' }),
    }, (t) => [
      primaryKey({ columns: [t[snakeToCamel(own)], t[snakeToCamel(other)]] }),
      link.uniqueOther
        ? uniqueIndex(`${linkName}_${other.replace(/_id$/, '')}_unique`).on(t[snakeToCamel(other)])
        : index(`${linkName}_${other.replace(/_id$/, '')}_idx`).on(t[snakeToCamel(other)]),
      tenantIsolation(),
    ]) as AnyTable;
    links[field] = { table: linkTable, own: linkTable[snakeToCamel(own)], other: linkTable[snakeToCamel(other)], target: link.target };
  }
  return { table, links, flattened: storage.flattened, computed: storage.computed };
}
