// Entities placed and edited as the studio and the dashboard's map do it: geometry (point,
// circle, polygon) checked with clear messages and nothing stored when refused; hand edits of
// attributes (update_entity_attribute) with their permission, the 'No attribute value changed'
// case, the log and the live diff; other tenants and the operator refused.
import { sql } from 'drizzle-orm';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facility: string;
let lampType: number;
let wsUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
  lampType = (await t.get('/entity-type-list', admin)).body.find((type: any) => type.name === 'Street lamp').id;
});
afterAll(async () => { await t?.close(); });

const gql = async (token: string, query: string, variables?: Record<string, unknown>) =>
  t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });

const create = (geom: unknown, name = 'Placed lamp') =>
  gql(admin, 'mutation($type: Int!, $name: JSON!, $geom: JSON) { create_entity(entity_type_id: $type, name: $name, geom: $geom) { id geom } }',
    { type: lampType, name: { en: name }, geom });

const square = [[[17.1, 48.1], [17.101, 48.1], [17.101, 48.101], [17.1, 48.101], [17.1, 48.1]]];

const logsOf = async (id: number | string) =>
  t.db.systemQuery<{ message: string; source: string; message_data: any }>(sql`SELECT message, source, message_data FROM logs WHERE entity_id = ${Number(id)} ORDER BY id`);

describe('geometry', () => {
  it('stores a point, a circle, a polygon and no position, each logged as created', async () => {
    for (const geom of [
      { type: 'Point', coordinates: [17.109, 48.145] },
      { type: 'Point', coordinates: [17.109, 48.145], radius: 12.5 },
      { type: 'Polygon', coordinates: square },
      { type: 'MultiPolygon', coordinates: [square] },
      null,
    ]) {
      const answer = await create(geom);
      expect(answer.body.errors, JSON.stringify(geom)).toBeUndefined();
      expect(answer.body.data.create_entity.geom).toEqual(geom);
      expect((await logsOf(answer.body.data.create_entity.id)).map((log) => log.message)).toEqual(['Entity created']);
    }
  });

  it('refuses bad shapes with a message naming the problem, and stores nothing', async () => {
    const [{ count: before }] = await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM entities`);
    const refused = async (geom: unknown) => {
      const answer = await create(geom, 'Refused lamp');
      expect(answer.body.data ?? null, JSON.stringify(geom)).toBeNull();
      expect(JSON.stringify(answer.body)).not.toMatch(/SELECT|stack|\.ts:|node_modules/);
      return answer.body.errors[0];
    };
    const open = [[[17.1, 48.1], [17.101, 48.1], [17.101, 48.101], [17.1, 48.101]]];
    expect(await refused({ type: 'Polygon', coordinates: open })).toMatchObject({
      message: 'geom: every ring of a polygon must end where it starts', extensions: { code: 'GEOMETRY_INVALID' },
    });
    expect((await refused({ type: 'Polygon', coordinates: [17.1, 48.1] })).message).toBe('geom: the coordinates of a Polygon must be a list of rings');
    expect((await refused({ type: 'Point', coordinates: square })).message).toBe('geom: the coordinates of a Point must be [longitude, latitude]');
    expect((await refused({ type: 'Polygon', coordinates: square, radius: 5 })).message).toBe('geom: only a point (a circle\'s centre) may have a radius');
    for (const geom of [
      { type: 'Point', coordinates: [17.1, 91] }, // beyond the pole
      { type: 'Point', coordinates: [181, 48] },
      { type: 'Point', coordinates: [17.1] },
      { type: 'Point', coordinates: [17.1, 48.1], radius: -1 },
      { type: 'Point', coordinates: [17.1, 48.1], radius: 1e9 },
      { type: 'LineString', coordinates: [[17.1, 48.1], [17.2, 48.2]] },
      { type: 'Point', coordinates: [17.1, 48.1], properties: { colour: 'red' } },
      { type: 'Polygon', coordinates: [[...Array.from({ length: 20_001 }, (_, i) => [17 + i / 1e6, 48]), [17, 48]]] },
      'POINT(17 48)',
    ]) {
      const error = await refused(geom);
      expect(['VALIDATION', 'NUMBER_MAX', 'NUMBER_MIN'], `${JSON.stringify(geom).slice(0, 80)}: ${JSON.stringify(error)}`).toContain(error.extensions.code);
      expect(error.extensions.field ?? error.message, JSON.stringify(error)).toMatch(/geom/);
    }
    const [{ count: after }] = await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM entities`);
    expect(after).toBe(before);
  });

  it('moving an entity (update_entity) is logged and published to its live subscribers', async () => {
    const id = (await create({ type: 'Point', coordinates: [17.1, 48.1] }, 'Moving lamp')).body.data.create_entity.id;
    const received: any[] = [];
    const client = createClient({ url: wsUrl, connectionParams: { authorization: `Bearer ${admin}` }, lazy: false, retryAttempts: 0 });
    client.subscribe({ query: `subscription { entity_updated(entity_ids: ["${id}"]) { id diff } }` }, {
      next: (value) => received.push(value.data?.entity_updated), error: () => {}, complete: () => {},
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const moved = { type: 'Point', coordinates: [17.2, 48.2] };
    expect((await gql(admin, 'mutation($id: ID!, $geom: JSON) { update_entity(id: $id, geom: $geom) { id } }', { id, geom: moved })).body.errors).toBeUndefined();
    await expect.poll(() => received.length).toBeGreaterThan(0);
    expect(received[0]).toMatchObject({ id, diff: { geom: moved, name: { en: 'Moving lamp' } } });
    expect(await gql(admin, 'mutation($id: ID!) { delete_entity(id: $id) { deleted } }', { id })).toMatchObject({ body: { data: { delete_entity: { deleted: true } } } });
    await expect.poll(() => received.some((update) => update.diff.deleted)).toBe(true);
    expect((await logsOf(id)).map((log) => log.message)).toEqual(['Entity created', 'Entity updated', 'Entity deleted']);
    expect((await logsOf(id))[1].message_data.changed).toContain('geom');
    await client.dispose();
  });
});

describe('update_entity_attribute (hand edits from the dashboard)', () => {
  const edit = (token: string, variables: Record<string, unknown>) =>
    gql(token, `mutation($id: ID!, $attributes: JSON, $geom: JSON, $vendor: String, $ts: Float) {
      update_entity_attribute(id: $id, attributes: $attributes, geom: $geom, vendor: $vendor, ts: $ts) { id attributes geom updated_at } }`, variables);

  it('merges what changed, logs old and new values, publishes the diff, and removes a key given as null', async () => {
    const id = (await create({ type: 'Point', coordinates: [17.1, 48.1] }, 'Edited lamp')).body.data.create_entity.id;
    await t.db.systemQuery(sql`UPDATE entities SET attributes = '{"dim_level": 40, "note": "old", "serial": "S-1"}' WHERE id = ${Number(id)}`);
    const received: any[] = [];
    const client = createClient({ url: wsUrl, connectionParams: { authorization: `Bearer ${admin}` }, lazy: false, retryAttempts: 0 });
    client.subscribe({ query: `subscription { entity_updated(entity_ids: ["${id}"]) { id diff } }` }, {
      next: (value) => received.push(value.data?.entity_updated), error: () => {}, complete: () => {},
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    const answer = await edit(admin, { id, attributes: { dim_level: 80, note: null, serial: 'S-1' }, ts: Date.UTC(2026, 10, 23, 12) });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.update_entity_attribute).toMatchObject({ id, attributes: { dim_level: 80, serial: 'S-1' }, geom: { type: 'Point', coordinates: [17.1, 48.1] } });
    await expect.poll(() => received.length).toBeGreaterThan(0);
    expect(received[0]).toEqual({ id, diff: { attributes: { dim_level: 80, note: null } } });
    const [log] = (await logsOf(id)).filter((entry) => entry.message === 'Entity attributes changed');
    expect(log.source).toBe('user');
    expect(log.message_data).toMatchObject({ vendor: 'manual', attributes: { dim_level: { from: 40, to: 80 }, note: { from: 'old', to: null } } });
    const [{ timestamp }] = await t.db.systemQuery<{ timestamp: string }>(sql`SELECT timestamp::text FROM logs WHERE entity_id = ${Number(id)} AND message = 'Entity attributes changed'`);
    expect(new Date(timestamp).toISOString()).toBe('2026-11-23T12:00:00.000Z');

    // the same values again, or nothing at all: refused, nothing logged
    for (const variables of [{ id, attributes: { dim_level: 80 } }, { id }, { id, geom: { type: 'Point', coordinates: [17.1, 48.1] } }]) {
      const same = await edit(admin, variables);
      expect(same.body.errors[0]).toMatchObject({ message: 'No attribute value changed', extensions: { code: 'NO_ATTRIBUTE_CHANGE' } });
    }
    expect((await logsOf(id)).filter((entry) => entry.message === 'Entity attributes changed')).toHaveLength(1);

    // a new position through the same door
    const moved = await edit(admin, { id, geom: { type: 'Polygon', coordinates: square } });
    expect(moved.body.data.update_entity_attribute.geom).toEqual({ type: 'Polygon', coordinates: square });
    await client.dispose();
  });

  it('needs dashboard.entity.manually_editable; another tenant gets Entity not found; bad input is refused', async () => {
    const id = (await create(null, 'Guarded lamp')).body.data.create_entity.id;
    const byOperator = await edit(operator, { id, attributes: { dim_level: 1 } });
    expect(byOperator.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const byOtherTenant = await edit(facility, { id, attributes: { dim_level: 1 } });
    expect(byOtherTenant.body.errors[0].message).toBe('Entity not found');
    expect((await edit(admin, { id, geom: { type: 'Polygon', coordinates: [[[17, 48], [17.1, 48], [17.1, 48.1], [17, 48.2]]] } })).body.errors[0].extensions.code).toBe('GEOMETRY_INVALID');
    expect((await edit(admin, { id, attributes: { ['k'.repeat(300)]: 1 } })).body.errors[0].extensions.code).toBe('VALIDATION');
    expect((await edit(admin, { id, attributes: { a: 1 }, ts: 1e20 })).body.errors[0].extensions.code).toBe('NUMBER_MAX');
    // the connection's attributes are the server's own (kept from the device's connection)
    for (const kept of [{ active: true }, { lastActivityTime: 1 }, { a: 1, active: null }]) {
      const refused = await edit(admin, { id, attributes: kept });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].extensions.code, JSON.stringify(kept)).toBe('ATTRIBUTE_KEPT_BY_SERVER');
      expect(refused.body.errors[0].message).toMatch(/^The attribute (active|lastActivityTime) is kept by the server/);
    }
    const [{ attributes }] = await t.db.systemQuery<{ attributes: Record<string, unknown> }>(sql`SELECT attributes FROM entities WHERE id = ${Number(id)}`);
    expect(attributes).toEqual({});
  });
});

describe('import_entities (the studio\'s device import)', () => {
  const importEntities = (token: string, entities: unknown[], dryRun = false) =>
    gql(token, 'mutation ($entities: [JSON!]!, $dry: Boolean) { import_entities(entities: $entities, dry_run: $dry) { rows created refused { row field message } } }', { entities, dry: dryRun });
  const count = async (name: string) => (await t.db.systemQuery<{ n: number }>(sql`SELECT count(*)::int AS n FROM entities WHERE name->>'en' LIKE ${`${name}%`}`))[0].n;
  const device = (name: string, extra: Record<string, unknown> = {}) => ({ entity_type_id: lampType, name: { en: name }, geom: { type: 'Point', coordinates: [17.1, 48.1] }, ...extra });

  it('checks every row first: a bad one names its row and field, and nothing is created', async () => {
    const answer = await importEntities(admin, [device('Imported A1'), device('Imported A2', { level: 'high' }), device('Imported A3', { geom: { type: 'Point', coordinates: [17.1, 95] } })]);
    expect(answer.body.data.import_entities).toMatchObject({ rows: 3, created: 0 });
    expect(answer.body.data.import_entities.refused.map((refusal: any) => [refusal.row, refusal.field])).toEqual([[2, 'level'], [3, 'geom.coordinates.1']]);
    expect(await count('Imported A')).toBe(0);
  });

  it('creates all rows in one transaction, or none when one fails on writing', async () => {
    expect((await importEntities(admin, [device('Imported B1'), device('Imported B2')], true)).body.data.import_entities).toEqual({ rows: 2, created: 0, refused: [] });
    expect(await count('Imported B')).toBe(0);
    expect((await importEntities(admin, [device('Imported B1'), device('Imported B2'), device('Imported B3')])).body.data.import_entities).toEqual({ rows: 3, created: 3, refused: [] });
    expect(await count('Imported B')).toBe(3);
    const broken = await importEntities(admin, [device('Imported C1'), device('Imported C2', { parent_id: 2_000_000_000 })]);
    expect(broken.body.data.import_entities).toMatchObject({ created: 0, refused: [{ row: 2, field: 'parent_id' }] });
    expect(await count('Imported C')).toBe(0);
  });

  it('is for the studio only, bounded, and never lands in another tenant', async () => {
    expect((await importEntities(operator, [device('Imported D1')])).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await importEntities(admin, Array.from({ length: 1001 }, (_, i) => device(`Imported E${i}`)))).body.errors[0].extensions.code).toBe('VALIDATION');
    const foreign = await importEntities(facility, [device('Imported F1')]); // tenant B naming tenant A's entity type
    expect(foreign.body.data.import_entities).toMatchObject({ created: 0, refused: [{ row: 1, field: 'entity_type_id' }] });
    expect(await count('Imported')).toBe(3);
  });
});
