// Every id a write names — at the top of the record, inside an object (an entity's gateway) or in
// the items of a list (a KPI's queries, a notification's sources) — must be a row of the caller's
// own tenant. Signed in to Demo Facility, each id of Demo City is refused with exactly the answer an
// id that exists nowhere gets, and nothing is written anywhere.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlDocuments } from '../../src/schemas/graphqlOperations.ts';
import type { ModelSchema } from '../../src/schemas/model.ts';
import { MODEL_SCHEMAS, type ModelName } from '../../src/schemas/models.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let facility: string;
/** A second user of Demo Facility, to share a board with. */
let colleague: string;

/** Ids of one tenant's rows, of each kind a write can name. */
interface TenantIds {
  tenantId: string; gateway: number; device: number; entityType: number; group: number; board: number;
  boardUuid: string; user: string; kpi: number; watcher: number;
}
let city: TenantIds;
let own: TenantIds;
const NOWHERE = 2_000_000_000;
const NOWHERE_UUID = randomUUID();

async function idsOf(tenantName: string): Promise<TenantIds> {
  const [ids] = await t.db.systemQuery<TenantIds>(sql`
    SELECT t.id AS "tenantId",
      (SELECT min(id) FROM entities WHERE tenant_id = t.id AND is_gateway) AS gateway,
      (SELECT min(id) FROM entities WHERE tenant_id = t.id AND NOT is_gateway AND fk_gateway_id IS NULL AND access_token IS NOT NULL) AS device,
      (SELECT min(id) FROM entity_types WHERE tenant_id = t.id) AS "entityType",
      (SELECT min(id) FROM groups WHERE tenant_id = t.id) AS "group",
      (SELECT min(id) FROM boards WHERE tenant_id = t.id) AS board,
      (SELECT resource_uuid FROM boards WHERE tenant_id = t.id ORDER BY id LIMIT 1) AS "boardUuid",
      (SELECT id FROM users WHERE tenant_id = t.id ORDER BY email LIMIT 1) AS "user",
      (SELECT min(id) FROM kpis WHERE tenant_id = t.id) AS kpi,
      (SELECT min(id) FROM watchers WHERE tenant_id = t.id) AS watcher
    FROM tenants t WHERE t.name = ${tenantName}`);
  for (const [kind, id] of Object.entries(ids)) expect(id, `${tenantName} has a ${kind}`).toBeTruthy();
  return ids;
}

beforeAll(async () => {
  t = await startTestApp();
  facility = (await t.login('admin@demo.facility')).access_token;
  city = await idsOf('Demo City');
  own = await idsOf('Demo Facility');
  [{ id: colleague }] = await t.db.systemQuery<{ id: string }>(sql`INSERT INTO users (tenant_id, username, email, password_hash)
    VALUES (${own.tenantId}, 'Colleague', 'colleague@demo.facility', 'unused') RETURNING id`);
});
afterAll(async () => { await t?.close(); });

const docs = (model: ModelName) => graphqlDocuments(MODEL_SCHEMAS[model] as unknown as ModelSchema);
const gql = (query: string, variables: Record<string, unknown>) => t.send({ method: 'POST', path: '/graphql', token: facility, body: { query, variables } });
const create = (model: ModelName, input: Record<string, unknown>) => gql(docs(model).create(input), input);
const update = (model: ModelName, input: Record<string, unknown>) => gql(docs(model).update(input), input);

/** Everything a refused write could have touched, in both tenants. */
const WRITTEN_TABLES = ['entities', 'entity_groups', 'kpis', 'kpi_groups', 'watchers', 'schedulers', 'boards', 'board_groups',
  'components', 'board_components', 'shares', 'notifications', 'logs', 'kpi_presets'];
const snapshot = () => Promise.all(WRITTEN_TABLES.map(async (table) =>
  (await t.db.systemQuery<{ rows: string }>(sql`SELECT count(*) || ':' || coalesce(md5(string_agg(r::text, ',' ORDER BY r::text)), '') AS rows FROM ${sql.identifier(table)} r`))[0].rows));

/** The answer with the named id written as <id>: what must be the same for every unknown id. */
function answerWithout(answer: { status: number; body: unknown }, id: number | string) {
  const text = JSON.stringify(answer.body).replaceAll(`: ${id} does`, ': <id> does').replaceAll(`"id":${JSON.stringify(id)}`, '"id":"<id>"');
  return { status: answer.status, body: JSON.parse(text) };
}

/**
 * Sends the write naming tenant A's id and an id that does not exist: both answer 400
 * REFERENCE_NOT_FOUND `<field>: <id> does not exist` for the same field, identical but for the id,
 * and nothing is written.
 */
async function expectUnknownReference(write: (id: number | string) => Promise<{ status: number; body: any }>, foreign: number | string, field: string) {
  const before = await snapshot();
  const nowhere = typeof foreign === 'string' ? NOWHERE_UUID : NOWHERE;
  const [ofOtherTenant, ofNoOne] = [await write(foreign), await write(nowhere)];
  expect(answerWithout(ofOtherTenant, foreign)).toEqual(answerWithout(ofNoOne, nowhere));
  expect(ofOtherTenant.status, JSON.stringify(ofOtherTenant.body)).toBe(400);
  const error = ofOtherTenant.body.errors[0];
  if (error.extensions) {
    expect(ofOtherTenant.body.data).toBeNull();
    expect(error).toMatchObject({ message: `${field}: ${foreign} does not exist`, extensions: { code: 'REFERENCE_NOT_FOUND', field, params: { id: foreign } } });
  } else {
    expect(ofOtherTenant.body).toEqual({ errors: [{ code: 'REFERENCE_NOT_FOUND', message: `${field}: ${foreign} does not exist`, field, params: { id: foreign } }] });
  }
  expect(await snapshot()).toEqual(before);
}

const lamp = (extra: Record<string, unknown> = {}) => ({ entity_type_id: own.entityType, name: { en: 'Probe' }, ...extra });
const kpi = (query: Record<string, unknown>[]) => ({ name: { en: 'Probe' }, query, definition: { chart: 'line' } });
const watcher = (extra: Record<string, unknown>) => ({ name: 'Probe', query: { key: 't', aggregation: 'avg' }, condition: { operator: '>', kind: 'number', value: 1 }, ...extra });
const scheduler = (extra: Record<string, unknown>) => ({
  name: 'Probe', definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'sum', key: 'energy', time_slot: 'last-week', target_attribute: 'e' }, ...extra,
});

describe('an entity names only its own tenant\'s rows', () => {
  it('create_entity: the gateway inside interface, as the parent, type and groups are', async () => {
    await expectUnknownReference((id) => create('entity', lamp({ interface: { fk_gateway_id: id } })), city.gateway, 'interface.fk_gateway_id');
    await expectUnknownReference((id) => create('entity', lamp({ parent_id: id })), city.device, 'parent_id');
    await expectUnknownReference((id) => create('entity', lamp({ entity_type_id: id })), city.entityType, 'entity_type_id');
    await expectUnknownReference((id) => create('entity', lamp({ group_ids: [own.group, id] })), city.group, 'group_ids');
  });

  it('update_entity: the same, and the entity reads back unchanged', async () => {
    const before = (await t.get(`/entity/${own.device}`, facility)).body;
    await expectUnknownReference((id) => update('entity', { id: own.device, interface: { is_gateway: false, fk_gateway_id: id } }), city.gateway, 'interface.fk_gateway_id');
    await expectUnknownReference((id) => update('entity', { id: own.device, parent_id: id }), city.device, 'parent_id');
    await expectUnknownReference((id) => update('entity', { id: own.device, group_ids: [id] }), city.group, 'group_ids');
    expect((await t.get(`/entity/${own.device}`, facility)).body).toEqual(before);
  });

  it('import_entities names the row and the field, the same for both', async () => {
    const imported = (id: number | string) => gql('mutation ($entities: [JSON!]!) { import_entities(entities: $entities) { rows created refused { row field message } } }',
      { entities: [lamp({ name: { en: 'Probe 1' } }), lamp({ name: { en: 'Probe 2' }, interface: { fk_gateway_id: id } })] });
    const before = await snapshot();
    const [ofOtherTenant, ofNoOne] = [await imported(city.gateway), await imported(NOWHERE)];
    expect(ofOtherTenant.body.data.import_entities).toEqual({
      rows: 2, created: 0, refused: [{ row: 2, field: 'interface.fk_gateway_id', message: `interface.fk_gateway_id: ${city.gateway} does not exist` }],
    });
    expect(answerWithout(ofOtherTenant, city.gateway)).toEqual(answerWithout(ofNoOne, NOWHERE));
    expect(await snapshot()).toEqual(before);
  });

  it('the gateway must be a gateway; the tenant\'s own gateway is taken', async () => {
    const notGateway = await create('entity', lamp({ interface: { fk_gateway_id: own.device } }));
    expect(notGateway.status).toBe(400);
    expect(notGateway.body.errors[0]).toMatchObject({
      message: `interface.fk_gateway_id: ${own.device} is not a gateway`, extensions: { code: 'NOT_A_GATEWAY', field: 'interface.fk_gateway_id', params: { id: own.device } },
    });
    const behindGateway = await create('entity', lamp({ interface: { fk_gateway_id: own.gateway } }));
    expect(behindGateway.status).toBe(200);
    expect(behindGateway.body.data.create_entity.interface).toMatchObject({ fk_gateway_id: own.gateway, is_gateway: false });
    const devices = (await t.get(`/entity-list?gateway=${own.gateway}`, facility)).body;
    expect(devices.map((device: { id: string }) => Number(device.id))).toContain(Number(behindGateway.body.data.create_entity.id));
  });
});

describe('ids inside other models\' objects and lists are the tenant\'s own', () => {
  it('KPI query items: entity_ids and entity_type_ids, named by their item', async () => {
    await expectUnknownReference((id) => create('kpi', kpi([{ key: 'a', aggregation: 'avg', entity_ids: [id] }])), city.device, 'query.0.entity_ids');
    await expectUnknownReference((id) => create('kpi', kpi([{ key: 'a', aggregation: 'avg' }, { key: 'b', aggregation: 'sum', entity_type_ids: [own.entityType, id] }])),
      city.entityType, 'query.1.entity_type_ids');
    await expectUnknownReference((id) => update('kpi', { id: own.kpi, query: [{ key: 'a', aggregation: 'avg', entity_ids: [own.device, id] }] }), city.device, 'query.0.entity_ids');
    await expectUnknownReference((id) => create('kpi', { ...kpi([{ key: 'a', aggregation: 'avg' }]), group_ids: [id] }), city.group, 'group_ids');
    const ownIds = await create('kpi', kpi([{ key: 'a', aggregation: 'avg', entity_ids: [own.device], entity_type_ids: [own.entityType] }]));
    expect(ownIds.status).toBe(200);
  });

  it('watchers and schedulers: entity_ids and entity_type_ids', async () => {
    await expectUnknownReference((id) => t.post('/create-watcher', { input: watcher({ entity_ids: [id] }) }, facility), city.device, 'entity_ids');
    await expectUnknownReference((id) => t.post('/create-watcher', { input: watcher({ entity_type_ids: [id] }) }, facility), city.entityType, 'entity_type_ids');
    await expectUnknownReference((id) => t.post('/create-scheduler', { input: scheduler({ entity_ids: [id] }) }, facility), city.device, 'entity_ids');
    await expectUnknownReference((id) => t.post('/create-scheduler', { input: scheduler({ entity_type_ids: [id] }) }, facility), city.entityType, 'entity_type_ids');
  });

  it('boards and components: groups, boards and the KPI a component shows', async () => {
    await expectUnknownReference((id) => create('board', { name: { en: 'Probe' }, group_ids: [id] }), city.group, 'group_ids');
    await expectUnknownReference((id) => create('component', { name: 'Probe', type: 'kpi', board_ids: [id], definition: { kpi_id: own.kpi } }), city.board, 'board_ids');
    await expectUnknownReference((id) => create('component', { name: 'Probe', type: 'kpi', board_ids: [own.board], definition: { kpi_id: id } }), city.kpi, 'definition.kpi_id');
    expect((await create('component', { name: 'Probe', type: 'kpi', board_ids: [own.board], definition: { kpi_id: own.kpi } })).status).toBe(200);
  });

  it('share_board: the shared board (resource) and the requester', async () => {
    const share = (extra: Record<string, unknown>) => ({ resource: own.boardUuid, requester: colleague, scope: 'view', ...extra });
    await expectUnknownReference((id) => create('share', share({ resource: id })), city.boardUuid, 'resource');
    await expectUnknownReference((id) => create('share', share({ requester: id })), city.user, 'requester');
    const shared = await create('share', share({}));
    expect(shared.status).toBe(200);
    expect(shared.body.data.share_board).toMatchObject({ resource: own.boardUuid, requester: colleague, scope: 'view' });
    const upperCase = await create('share', share({ resource: own.boardUuid.toUpperCase() }));
    expect(upperCase.status).toBe(200);
  });

  it('notification sources: the model_id of the source\'s model', async () => {
    const rule = (source: Record<string, unknown>) => ({ channels: ['email'], log_filter: { type: ['error'], sources: [{ model_name: 'entity', model_id: own.device }, source] } });
    await expectUnknownReference((id) => create('notification', rule({ model_name: 'watcher', model_id: id })), city.watcher, 'log_filter.sources.1.model_id');
    await expectUnknownReference((id) => create('notification', rule({ model_name: 'entity', model_id: id })), city.device, 'log_filter.sources.1.model_id');
    expect((await create('notification', rule({ model_name: 'watcher', model_id: own.watcher }))).status).toBe(200);
    expect((await create('notification', rule({ model_name: 'system' }))).status).toBe(200);
  });

  it('KPI presets: the KPI of each item, named by its item', async () => {
    const preset = (kpiId: number) => ({ module: 'public-api-dashboard', items: [{ kpi_id: own.kpi, width: 24 }, { kpi_id: kpiId }] });
    await expectUnknownReference((id) => create('kpi_preset', preset(id as number)), city.kpi, 'items.1.kpi_id');
    const [kept] = (await t.get('/kpi-preset-list', facility)).body;
    await expectUnknownReference((id) => update('kpi_preset', { id: kept.id, items: [{ kpi_id: id }] }), city.kpi, 'items.0.kpi_id');
    expect((await create('kpi_preset', { module: 'public-api-dashboard', items: [{ kpi_id: own.kpi }] })).status).toBe(200);
  });
});
