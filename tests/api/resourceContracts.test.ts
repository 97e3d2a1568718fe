// Contract tests generated from each model's schema: a valid sample is created, and each
// constraint broken in turn (type, bound, enum, required, pattern, size) is refused with a 400
// naming the field and the constraint's message — through the model's GraphQL create operation,
// the door every model has.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentOf, inputArgumentTypes, operationNames } from '../../src/schemas/graphqlOperations.ts';
import { accessRule, createInputSchema, type FieldSchema, type ModelSchema } from '../../src/schemas/model.ts';
import { MODEL_SCHEMAS } from '../../src/schemas/models.ts';
import { sampleObject, violations, withValue, without } from '../support/schemaSamples.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;
/**
 * Per model, the reference fields of a valid record, set to the tenant's own rows (a sample UUID
 * names none), and what else a valid record of the demo admin needs: the demo admin already keeps
 * the map dashboard's KPI preset (one per dashboard), so the sample is another dashboard's; a
 * component is placed on one of the admin's boards of its kind, a board shared with another user.
 */
let ownReferences: Record<string, Record<string, unknown>>;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.login('admin@demo.city')).access_token;
  const user = (await t.get('/user-me', token)).body.id;
  const [operator] = await t.db.systemQuery<{ id: string }>(sql`SELECT id FROM users WHERE email = 'operator@demo.city'`);
  const boards = await t.db.systemQuery<{ id: number; uuid: string; kind: string }>(
    sql`SELECT id, resource_uuid AS uuid, kind FROM boards WHERE owner_id = ${user} ORDER BY id`);
  const board = (kind: string) => boards.find((row) => row.kind === kind)!;
  ownReferences = {
    share: { resource: board('performance').uuid, requester: operator.id },
    public_api_share: { resource: board('public_api').uuid, requester: operator.id },
    component: { board_ids: [board('performance').id] },
    public_api_component: { board_ids: [board('public_api').id] },
    kpi_preset: { module: 'performance-dashboard' },
    // a window ends after it starts (the sample's times are all one)
    maintenance_window: { schedule: { kind: 'once', starts_at: '2030-01-01T06:00:00.000Z', ends_at: '2030-01-01T08:00:00.000Z' } },
  };
});
afterAll(async () => { await t?.close(); });

const creatable = (Object.values(MODEL_SCHEMAS) as ModelSchema[]).filter((model) => accessRule(model, 'create'));

async function create(model: ModelSchema, record: Record<string, unknown>) {
  const { create: operation } = operationNames(model);
  const types = inputArgumentTypes(model, false);
  const used = Object.keys(record);
  // the variables are named by field, passed as the arguments SPEC names (share_board's scopeName)
  const declarations = used.length ? `(${used.map((name) => `$${name}: ${types[argumentOf(model, name)]}`).join(', ')})` : '';
  const args = used.length ? `(${used.map((name) => `${argumentOf(model, name)}: $${name}`).join(', ')})` : '';
  const query = `mutation${declarations} { ${operation}${args} { id } }`;
  return t.send({ method: 'POST', path: '/graphql', token, body: { query, variables: record } });
}

describe.each(creatable.map((model) => [model.$id, model] as const))('%s', (_name, model) => {
  const sample = sampleObject(createInputSchema(model) as FieldSchema);

  it('accepts a valid record', async () => {
    const { status, body } = await create(model, { ...sample, ...ownReferences[model.$id] });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(Number(body.data[operationNames(model).create].id)).toBeGreaterThan(0);
  });

  // a required field with a default is filled in, not refused
  const required = ((createInputSchema(model).required ?? []) as string[]).filter((field) => model.properties[field].default === undefined);
  it.each(required)('refuses a record without %s', async (field) => {
    const { status, body } = await create(model, without(sample, [field]));
    expect(status).toBe(400);
    expect(body.errors[0].message).toMatch(new RegExp(`${field} is required|must have required property`));
  });

  const broken = violations(model).filter((violation) => !(violation.constraint === 'type' && violation.path.length === 1 && violation.path[0] === 'id'));
  it.each(broken.map((violation) => [`${violation.path.join('.')} (${violation.constraint})`, violation] as const))('refuses %s', async (_label, violation) => {
    const { status, body } = await create(model, withValue(sample, violation.path, violation.value));
    // a wrongly typed top-level argument is refused by GraphQL itself, before the schema
    expect(status).toBe(400);
    const [error] = body.errors;
    if (error.extensions.code !== 'GRAPHQL_VALIDATION') {
      expect(error.extensions.field.startsWith(violation.path.join('.'))).toBe(true);
      expect(error.message).toMatch(violation.message);
    }
  });
});
