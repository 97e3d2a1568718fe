// What the engine derives once from a registered model (server/resources/registry.ts): its
// fields' columns (plain fields, and objects whose properties are columns of their own), what a
// read selects (for its reader too: fields computed for them, what they may do), the table as the
// statements take it (server/db/resourceQueries.ts), and the schemas that validate its inputs.
import { getTableName, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { createInputSchema, listQuerySchema, updateInputSchema, type ModelSchema } from '../../src/schemas/model.ts';
import { columnKeys, columnsByName } from '../db/columnKeys.ts';
import { linkedGrants, linkedIdsSeen, nested, type TableGrants } from '../db/grantQueries.ts';
import { linkedIds, ownRowId, type RecordTable } from '../db/resourceQueries.ts';
import { GRANT_RANKS, type ModelBinding } from './bindings.ts';
import { fieldWithoutColumn } from './modelStorageError.ts';
import { registeredModel } from './registry.ts';

export interface Model {
  name: string;
  schema: ModelSchema;
  binding: ModelBinding;
  table: PgTable;
  /** field → column (plain fields) */
  columns: Record<string, PgColumn>;
  /** flattened object field → its properties' columns */
  flattened: Record<string, Record<string, PgColumn>>;
  /** column name → the property key of its value in an insert or update */
  keys: Map<string, string>;
  /** The table as the statements take it. */
  storage: RecordTable;
  createSchema: object;
  updateSchema: object;
  listSchema: object;
}

function describeModel(name: string): Model {
  const { schema, binding } = registeredModel(name);
  const byName = columnsByName(binding.table);
  const columnOf = (field: string, column: string) => {
    const found = byName.get(column);
    if (!found) throw fieldWithoutColumn(name, field, getTableName(binding.table));
    return found;
  };
  const columns: Record<string, PgColumn> = {};
  const flattened: Record<string, Record<string, PgColumn>> = {};
  const selection: Record<string, PgColumn | SQL> = {};
  const forReader: Record<string, (reader: SQL) => SQL> = {};
  const grants = tableGrants(binding);
  for (const [field, fieldSchema] of Object.entries(schema.properties)) {
    const link = binding.links?.[field];
    const computed = binding.computed?.[field];
    if (binding.completed?.includes(field)) continue;
    if (grants?.through?.field === field) {
      // the linked records the reader sees, only
      forReader[field] = linkedIdsSeen(grants.through.link, ownRowId(binding.table), grants.through.linkedAtLeast);
    } else if (link) {
      selection[field] = linkedIds(link, binding.table);
    } else if (computed) {
      forReader[field] = (reader) => nested(computed(binding.table, reader));
    } else if (binding.flattened?.includes(field)) {
      flattened[field] = {};
      for (const property of Object.keys(fieldSchema.properties ?? {})) {
        flattened[field][property] = selection[`${field}.${property}`] = columnOf(`${field}.${property}`, property);
      }
    } else {
      columns[field] = selection[field] = columnOf(field, field);
    }
  }
  const owner = schema['x-owner'];
  return {
    name, schema, binding, table: binding.table, columns, flattened, keys: columnKeys(binding.table),
    storage: {
      table: binding.table, id: byName.get('id')!, tenant: byName.get('tenant_id')!, owner: owner ? byName.get(owner) : undefined,
      fixed: Object.entries(binding.fixed ?? {}).map(([column, value]) => [byName.get(column)!, value]),
      selection,
      readerSelection: Object.keys(forReader).length ? (reader) => Object.fromEntries(Object.entries(forReader).map(([field, of]) => [field, of(reader)])) : undefined,
      grants,
    },
    createSchema: createInputSchema(schema), updateSchema: updateInputSchema(schema), listSchema: listQuerySchema(schema),
  };
}

/** The grants of the model's rows as its statements take them: its own, or through a link field from another granted model. */
function tableGrants(binding: ModelBinding): TableGrants | undefined {
  const { grants } = binding;
  if (!grants) return undefined;
  const listRank = GRANT_RANKS[grants.needs.list ?? 'view'];
  if (!grants.through) return { sql: { of: grants.of!, holders: grants.holders! }, listRank };
  const target = modelOf(grants.through.model).storage;
  const via = binding.links![grants.through.field];
  const linked = linkedGrants({ table: target.table, id: target.id, fixed: target.fixed, grants: target.grants!.sql, via }, ownRowId(binding.table));
  return { sql: linked, listRank, through: { field: grants.through.field, link: via, linkedAtLeast: linked.linkedAtLeast } };
}

const models = new Map<string, Model>();

export function modelOf(name: string): Model {
  let model = models.get(name);
  if (!model) models.set(name, (model = describeModel(name)));
  return model;
}
