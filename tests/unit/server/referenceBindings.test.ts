// Every id a model's write can carry — at the top of the record, inside an object or in the items
// of a list — is bound as a reference (or a link) that the engine checks against the caller's
// tenant: a field added to a schema without one fails here, not in another tenant's data.
import { describe, expect, it } from 'vitest';
import { MODEL_BINDINGS } from '../../../server/resources/bindings.ts';
import { INT4_MAX } from '../../../src/schemas/bounds.ts';
import type { FieldSchema, ModelSchema } from '../../../src/schemas/model.ts';
import { MODEL_SCHEMAS } from '../../../src/schemas/models.ts';

const isRecordId = (schema: FieldSchema) =>
  [schema.type].flat().includes('integer') && schema.minimum === 1 && schema.maximum === INT4_MAX;
const isUuid = (schema: FieldSchema) => typeof schema.pattern === 'string' && schema.pattern.startsWith('^[0-9a-fA-F]{8}-');
const holdsIds = (schema: FieldSchema) => isRecordId(schema) || isUuid(schema) || (!!schema.items && (isRecordId(schema.items) || isUuid(schema.items)));

/** Paths of the writable fields holding ids (`query.entity_ids` for a field of the items of `query`). */
function idPaths(schema: FieldSchema, at: string[] = []): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([field, fieldSchema]) => {
    if (fieldSchema.readOnly || (!at.length && field === 'id')) return [];
    const path = [...at, field];
    if (holdsIds(fieldSchema)) return [path.join('.')];
    return [...idPaths(fieldSchema, path), ...(fieldSchema.items ? idPaths(fieldSchema.items, path) : [])];
  });
}

describe.each(Object.entries(MODEL_SCHEMAS))('%s', (name, schema) => {
  it('binds every id field it writes to the tenant\'s rows', () => {
    const binding = MODEL_BINDINGS[name as keyof typeof MODEL_BINDINGS];
    const checked = [...Object.keys(binding.references ?? {}), ...Object.keys(binding.links ?? {})];
    const unchecked = idPaths(schema as unknown as ModelSchema as FieldSchema).filter((path) => !checked.includes(path));
    expect(unchecked).toEqual([]);
  });
});

it('finds the ids inside objects and lists', () => {
  expect(idPaths(MODEL_SCHEMAS.entity as unknown as FieldSchema)).toEqual(['entity_type_id', 'parent_id', 'group_ids', 'interface.fk_gateway_id']);
  expect(idPaths(MODEL_SCHEMAS.kpi as unknown as FieldSchema)).toEqual(['group_ids', 'query.entity_ids', 'query.entity_type_ids']);
  expect(idPaths(MODEL_SCHEMAS.share as unknown as FieldSchema)).toEqual(['resource', 'requester']);
  expect(idPaths(MODEL_SCHEMAS.notification as unknown as FieldSchema)).toEqual(['log_filter.sources.model_id']);
});
