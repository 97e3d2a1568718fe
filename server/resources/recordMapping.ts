// Rows ↔ records of a model (server/resources/resourceModel.ts): a selected row becomes the record
// the API answers (ISO times, objects gathered from their columns, nulls left out where the field
// does not take null); a record becomes the column values of a write, with the server's own
// (audit, owner, tenant, fixed values).
import type { PgColumn } from 'drizzle-orm/pg-core';
import { allowsNull } from '../../src/schemas/model.ts';
import type { Caller } from '../auth/caller.ts';
import type { Model } from './resourceModel.ts';

export type RecordData = Record<string, unknown>;

export function toRecord(model: Model, row: RecordData): RecordData {
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

/** A field's value as its column takes it (timestamp columns take Date objects). */
const columnValue = (column: PgColumn, value: unknown) =>
  (column.columnType === 'PgTimestamp' && typeof value === 'string' ? new Date(value) : value ?? null);

/** Column values (property keys) of the writable plain and flattened fields present in `record`. */
export function toColumns(model: Model, record: RecordData): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record)) {
    if (model.schema.properties[field]?.readOnly) continue;
    if (model.columns[field]) values[model.keys.get(model.columns[field].name)!] = columnValue(model.columns[field], value);
    else if (model.flattened[field]) {
      for (const [property, column] of Object.entries(model.flattened[field])) values[model.keys.get(column.name)!] = (value as RecordData)?.[property] ?? null;
    }
  }
  return values;
}

/** The server's own column values of a write: audit fields, and on create the tenant, owner (or the granted record's) and fixed values. */
export function serverColumns(model: Model, caller: Caller, creating: boolean): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const set = (name: string, value: unknown) => {
    const key = model.keys.get(name);
    if (key) values[key] = value;
  };
  set('last_updated_by', caller.userId);
  if (!creating) set('updated_at', new Date());
  if (creating) {
    set('tenant_id', caller.tenantId);
    if (model.schema['x-owner']) set(model.schema['x-owner'], caller.userId);
    if (model.binding.grants?.owner) set(model.binding.grants.owner, caller.userId);
    for (const [name, value] of Object.entries(model.binding.fixed ?? {})) set(name, value);
  }
  return values;
}
