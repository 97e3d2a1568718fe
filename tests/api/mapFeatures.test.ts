// GET /map-features: what the map draws, compact and paged, scoped to the caller's tenant.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let facility: string;
let operator: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
});
afterAll(async () => { await t?.close(); });

const features = async (token: string, query = '') => t.get(`/map-features${query}`, token);

describe('GET /map-features', () => {
  it('sends every entity of the tenant as [id, type, level, parent, position, value, colour], positions compact', async () => {
    const all = await features(admin);
    expect(all.status).toBe(200);
    const list = (await t.get('/entity-list', admin)).body as any[];
    expect(all.body.rows.map((row: any[]) => row[0]).sort((a: number, b: number) => a - b)).toEqual(list.map((e) => e.id).sort((a, b) => a - b));
    expect(all.body.next).toBeNull();
    for (const row of all.body.rows) {
      const entity = list.find((e) => e.id === row[0]);
      expect(row.slice(0, 4)).toEqual([entity.id, entity.entity_type_id, entity.level, entity.parent_id]);
      const geom = entity.geom;
      if (!geom) expect(row[4]).toBeNull();
      else if (geom.type === 'Point') expect(row[4]).toEqual(geom.radius ? [...geom.coordinates, geom.radius] : geom.coordinates);
      else expect(row[4]).toEqual(geom);
      expect(row[5]).toBeNull();
      // the entity's own colour: the demo regions have one
      expect(row[6]).toBe(/^#[0-9a-fA-F]{6}$/.test(String(entity.attributes?.color)) ? entity.attributes.color : null);
    }
    expect(all.body.rows.some((row: any[]) => row[6] !== null)).toBe(true);
    expect(all.body.rows.some((row: any[]) => Array.isArray(row[4]))).toBe(true); // the demo has points
    // the operator (no permission, dashboard module) draws the same map
    expect((await features(operator)).body).toEqual(all.body);
  });

  it('pages by id without gaps or repeats, narrows to a region\'s subtree and a level, and carries the colour attribute', async () => {
    const all = (await features(admin)).body.rows as any[][];
    const seen: number[] = [];
    let after = 0;
    for (let page = 0; page < 100; page++) {
      const { body } = await features(admin, `?limit=7&after=${after}`);
      seen.push(...body.rows.map((row: any[]) => row[0]));
      if (body.next === null) break;
      expect(body.rows).toHaveLength(7);
      after = body.next;
    }
    expect(seen).toEqual(all.map((row) => row[0]).sort((a, b) => a - b));

    const list = (await t.get('/entity-list', admin)).body as any[];
    const region = list.find((e) => e.parent_id === null && list.some((child) => child.parent_id === e.id));
    const inRegion = list.filter((e) => e.tree_path === region.tree_path || e.tree_path.startsWith(`${region.tree_path}.`)).map((e) => e.id).sort((a, b) => a - b);
    expect((await features(admin, `?region=${region.id}`)).body.rows.map((row: any[]) => row[0])).toEqual(inRegion);
    const levelOne = list.filter((e) => e.level === 1).map((e) => e.id).sort((a, b) => a - b);
    expect((await features(admin, '?level=1')).body.rows.map((row: any[]) => row[0])).toEqual(levelOne);

    const [lamp] = list.filter((e) => e.entity_type.category === 'lighting');
    await t.db.systemQuery(sql`UPDATE entities SET attributes = attributes || '{"dim_level": 63}' WHERE id = ${lamp.id}`);
    const coloured = (await features(admin, `?attribute=dim_level&region=${lamp.id}`)).body.rows;
    expect(coloured).toEqual([[lamp.id, lamp.entity_type_id, lamp.level, lamp.parent_id, expect.anything(), 63, null]]);
  });

  it('details come on demand: /entity/{id} carries the latest telemetry as { key: { ts, value } }', async () => {
    const list = (await t.get('/entity-list', admin)).body as any[];
    const lamp = list.find((e) => e.entity_type.category === 'lighting');
    const [latest] = await t.db.systemQuery<{ key: string; ms: number; value_num: number }>(sql`
      SELECT key, (extract(epoch FROM ts) * 1000)::float8 AS ms, value_num FROM telemetry_latest WHERE entity_id = ${lamp.id} ORDER BY key LIMIT 1`);
    expect(latest).toBeDefined(); // the harness writes a day of demo history
    const detail = (await t.get(`/entity/${lamp.id}`, admin)).body;
    expect(detail.telemetry[latest.key]).toEqual({ ts: latest.ms, value: latest.value_num });
    const region = list.find((e) => e.parent_id === null);
    expect((await t.get(`/entity/${region.id}`, admin)).body.telemetry).toEqual({});
  });

  it('never shows another tenant\'s entities, and refuses bad parameters with 400', async () => {
    const cityIds = new Set(((await features(admin)).body.rows as any[][]).map((row) => row[0]));
    const facilityRows = (await features(facility)).body.rows as any[][];
    expect(facilityRows.length).toBeGreaterThan(0);
    expect(facilityRows.some((row) => cityIds.has(row[0]))).toBe(false);
    const [cityRegion] = [...cityIds];
    expect((await features(facility, `?region=${cityRegion}`)).body).toEqual({ rows: [], next: null });
    for (const query of ['?limit=0', '?limit=20001', '?after=-1', '?region=0', '?region=abc', '?level=99999', '?attribute=', '?attribute=a%00b', `?attribute=${'a'.repeat(256)}`, '?colour=red']) {
      const answer = await features(admin, query);
      expect(answer.status, query).toBe(400);
      expect(JSON.stringify(answer.body)).not.toMatch(/SELECT|stack|\.ts:/);
    }
    expect((await t.send({ path: '/map-features' })).status).toBe(401);
  });
});
