// GET /map-clusters: the viewport's clusters and lone devices from the server's grid, scoped to the
// caller's tenant and region, bounded, and kept current by the commits (no rebuild: the same grid
// answers before and after each change).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coveredByMaintenance } from '../../server/db/maintenanceQueries.ts';
import { DEVICE_FLAGS, MAX_CLUSTER_ZOOM } from '../../src/schemas/mapClusters.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facility: string;
let lampType: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
  lampType = (await t.get('/entity-type-list', admin)).body.find((type: any) => type.name === 'Street lamp').id;
  // a lamp in alarm (the engines do not run here): one of Demo City's watchers alerting on it
  await t.db.systemQuery(sql`INSERT INTO watcher_states (tenant_id, watcher_id, entity_id, state, since)
    SELECT w.tenant_id, w.id, e.id, 'alerting', now() FROM watchers w JOIN entities e ON e.tenant_id = w.tenant_id AND e.entity_type_id = ${lampType}
    ORDER BY w.id, e.id LIMIT 1 ON CONFLICT (watcher_id, entity_id) DO UPDATE SET state = 'alerting'`);
});
afterAll(async () => { await t?.close(); });

const WORLD = 'zoom=2&west=-180&south=-85&east=180&north=85';
const clusters = (token: string, query = WORLD) => t.get(`/map-clusters?${query}`, token);
const gql = (token: string, query: string, variables?: Record<string, unknown>) => t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });

/** The ids /map-features draws as points (a position of two numbers), optionally narrowed. */
async function pointIds(token: string, query = '') {
  const rows = (await t.get(`/map-features${query}`, token)).body.rows as any[][];
  return rows.filter((row) => Array.isArray(row[4]) && row[4].length === 2).map((row) => row[0] as number);
}

/** The devices an answer represents: its lone devices and its clusters' members. */
const total = (body: { clusters: number[][]; points: unknown[][] }) => body.points.length + body.clusters.reduce((sum, cluster) => sum + cluster[2], 0);
const sumOf = (body: { clusters: number[][]; points: number[][] }, column: number, flag: number) =>
  body.clusters.reduce((sum, cluster) => sum + cluster[column], 0) + body.points.filter((point) => point[5] & flag).length;

/** Zoomed in past the clusters around a position: the devices listed there. */
const around = (token: string, [lng, lat]: number[], extra = '') =>
  clusters(token, `zoom=${MAX_CLUSTER_ZOOM + 2}&west=${lng - 0.0005}&south=${lat - 0.0005}&east=${lng + 0.0005}&north=${lat + 0.0005}${extra}`);

describe('GET /map-clusters', () => {
  it('answers many callers at once while the grid is first built, each the same', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => clusters(i % 2 ? operator : admin, `zoom=${8 + (i % 4)}&west=16.8&south=48&east=17.4&north=48.3`)));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[i % 4].body);
    }
  });

  it('represents every point device of the tenant once, the same for the operator, and none of another tenant\'s', async () => {
    const world = await clusters(admin);
    expect(world.status).toBe(200);
    const ids = await pointIds(admin);
    expect(ids.length).toBeGreaterThan(0);
    expect(total(world.body)).toBe(ids.length);
    expect(world.body.zoom).toBe(2);
    const rows = (await t.get('/map-features', admin)).body.rows as any[][];
    expect(world.body.levels).toEqual([...new Set(rows.filter((row) => ids.includes(row[0])).map((row) => row[2]))].sort((a, b) => a - b));
    // the areas (`shape=areas`) and the clusters' devices together are everything the map draws
    const areas = (await t.get('/map-features?shape=areas', admin)).body.rows as any[][];
    expect(areas.length).toBeGreaterThan(0);
    expect([...areas.map((row) => row[0]), ...ids].sort((a, b) => a - b)).toEqual(rows.filter((row) => row[4] !== null).map((row) => row[0]).sort((a, b) => a - b));
    expect((await clusters(operator)).body).toEqual(world.body);
    // in alarm: the tenant's point devices with a watch alerting or without data, as stored
    const alerting = await t.db.systemQuery<{ entity_id: number }>(sql`SELECT DISTINCT entity_id FROM watcher_states WHERE state IN ('alerting', 'no_data')`);
    const expectedAlarms = alerting.filter(({ entity_id: id }) => ids.includes(id)).length;
    expect(expectedAlarms).toBeGreaterThan(0);
    expect(sumOf(world.body, 3, DEVICE_FLAGS.alarm)).toBe(expectedAlarms);

    const theirs = await clusters(facility);
    expect(total(theirs.body)).toBe((await pointIds(facility)).length);
    for (const [id] of theirs.body.points) expect(ids).not.toContain(id);
  });

  it('narrows to a region\'s subtree and a level, and lists devices alone, with the colour attribute, once zoomed in', async () => {
    const list = (await t.get('/entity-list', admin)).body as any[];
    const region = list.find((e) => e.parent_id === null && list.some((child) => child.parent_id === e.id && child.geom?.type === 'Point'));
    expect(total((await clusters(admin, `${WORLD}&region=${region.id}`)).body)).toBe((await pointIds(admin, `?region=${region.id}`)).length);
    expect(total((await clusters(admin, `${WORLD}&level=0`)).body)).toBe((await pointIds(admin, '?level=0')).length);

    const lamp = list.find((e) => e.entity_type_id === lampType && e.geom?.type === 'Point' && !e.geom.radius);
    const close = await around(admin, lamp.geom.coordinates, '&attribute=dim_level');
    const listed = close.body.points.find((point: any[]) => point[0] === lamp.id);
    expect(listed).toEqual([lamp.id, lamp.entity_type_id, lamp.level, ...lamp.geom.coordinates, expect.any(Number), lamp.attributes.dim_level ?? null]);
    // another tenant's region narrows to nothing
    const facilityRegion = ((await t.get('/entity-list', facility)).body as any[]).find((e) => e.parent_id === null);
    expect(total((await clusters(admin, `${WORLD}&region=${facilityRegion.id}`)).body)).toBe(0);
  });

  it('follows created, moved and deleted devices and a maintenance window as they are committed', async () => {
    const before = total((await clusters(admin)).body);
    const place = [-40.5, 10.25];
    const created = await gql(admin, 'mutation($type: Int!, $geom: JSON) { create_entity(entity_type_id: $type, name: {en: "Ocean lamp"}, geom: $geom) { id } }',
      { type: lampType, geom: { type: 'Point', coordinates: place } });
    const id = Number(created.body.data.create_entity.id);
    await expect.poll(async () => (await around(admin, place)).body.points.map((point: any[]) => point[0])).toEqual([id]);
    expect(total((await clusters(admin)).body)).toBe(before + 1);

    const moved = [-41.5, 11.25];
    expect((await gql(admin, 'mutation($id: ID!, $geom: JSON) { update_entity(id: $id, geom: $geom) { id } }', { id, geom: { type: 'Point', coordinates: moved } })).body.errors).toBeUndefined();
    await expect.poll(async () => (await around(admin, moved)).body.points.map((point: any[]) => point[0])).toEqual([id]);
    expect((await around(admin, place)).body.points).toEqual([]);

    const window = await t.post('/create-maintenance-window', {
      input: { name: 'Lamp swap', mode: 'device-maintenance', scope: 'tenant', schedule: { kind: 'once', starts_at: new Date(Date.now() - 60_000).toISOString(), ends_at: new Date(Date.now() + 3_600_000).toISOString() } },
    }, admin);
    expect(window.status, JSON.stringify(window.body)).toBe(200);
    await expect.poll(async () => sumOf((await clusters(admin)).body, 5, DEVICE_FLAGS.maintenance)).toBe(before + 1);
    expect((await around(admin, moved)).body.points[0][5] & DEVICE_FLAGS.maintenance).toBe(DEVICE_FLAGS.maintenance);
    // the other tenant's devices are not under this tenant's window
    expect(sumOf((await clusters(facility)).body, 5, DEVICE_FLAGS.maintenance)).toBe(0);
    expect((await t.post('/delete-maintenance-window', { id: window.body.id }, admin)).status).toBe(200);
    await expect.poll(async () => sumOf((await clusters(admin)).body, 5, DEVICE_FLAGS.maintenance)).toBe(0);

    expect((await gql(admin, 'mutation($id: ID!) { delete_entity(id: $id) { deleted } }', { id })).body.errors).toBeUndefined();
    await expect.poll(async () => total((await clusters(admin)).body)).toBe(before);
  });

  it('counts under maintenance exactly the devices a region\'s or a group\'s window covers, as the windows define covering', async () => {
    const list = (await t.get('/entity-list', admin)).body as any[];
    const region = list.find((e) => e.parent_id === null && list.some((child) => child.parent_id === e.id && child.geom?.type === 'Point'));
    const group = ((await t.get('/group-list', admin)).body as { id: number; name: string }[]).find((g) => g.name === 'Lighting')!;
    const points = new Set(await pointIds(admin));
    const schedule = { kind: 'once', starts_at: new Date(Date.now() - 60_000).toISOString(), ends_at: new Date(Date.now() + 3_600_000).toISOString() };
    for (const scope of [{ scope: 'region', region_id: region.id }, { scope: 'group', group_id: group.id }]) {
      const made = await t.post('/create-maintenance-window', { input: { name: `Over a ${scope.scope}`, mode: 'device-maintenance', ...scope, schedule } }, admin);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      // the entities the window covers, by its own per-entity definition (maintenanceQueries.ts covers)
      const covered = await t.db.systemQuery<{ id: number }>(sql`SELECT e.id FROM entities e WHERE ${coveredByMaintenance('device-maintenance', sql`e`)}`);
      const expected = covered.filter(({ id }) => points.has(id)).length;
      expect(expected).toBeGreaterThan(0);
      await expect.poll(async () => sumOf((await clusters(admin)).body, 5, DEVICE_FLAGS.maintenance), { message: scope.scope }).toBe(expected);
      expect((await t.post('/delete-maintenance-window', { id: made.body.id }, admin)).status).toBe(200);
      await expect.poll(async () => sumOf((await clusters(admin)).body, 5, DEVICE_FLAGS.maintenance)).toBe(0);
    }
  });

  it('refuses a viewport too large for its zoom, and malformed or missing bounds, with a clear 400', async () => {
    const tooLarge = await clusters(admin, 'zoom=16&west=-10&south=40&east=20&north=60');
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.errors[0]).toMatchObject({ code: 'ANSWER_TOO_LARGE', message: expect.stringContaining('a smaller area') });
    for (const query of ['zoom=2', 'zoom=25&west=0&south=0&east=1&north=1', 'zoom=2&west=-181&south=0&east=1&north=1', 'zoom=2&west=0&south=0&east=1&north=91',
      'zoom=x&west=0&south=0&east=1&north=1', `${WORLD}&region=0`, `${WORLD}&attribute=`, `${WORLD}&other=1`]) {
      const refused = await clusters(admin, query);
      expect(refused.status, query).toBe(400);
      expect(JSON.stringify(refused.body)).not.toMatch(/stack|at \//);
    }
    expect((await t.get(`/map-clusters?${WORLD}`, 'not-a-token')).status).toBe(401);
    // the areas' filter of /map-features takes `areas` alone
    for (const shape of ['points', '', 'areas,points']) expect((await t.get(`/map-features?shape=${shape}`, admin)).status, shape).toBe(400);
  });

});
