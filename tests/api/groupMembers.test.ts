// GET /group-members: a group's entity ids, paged and narrowed to a region, for the map's group
// colouring; another tenant's group or region answers nothing, bad parameters a 400.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facility: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
});
afterAll(async () => { await t?.close(); });

const members = (token: string, query: string) => t.get(`/group-members${query}`, token);
const byId = (a: number, b: number) => a - b;

describe('GET /group-members', () => {
  it('answers the ids of the group\'s entities, as /entity-list?group= has them, to the admin and the operator', async () => {
    const groups = (await t.get('/group-list', admin)).body as { id: number; name: string }[];
    const lighting = groups.find((group) => group.name === 'Lighting')!;
    const expected = ((await t.get(`/entity-list?group=${lighting.id}`, admin)).body as { id: number }[]).map((e) => e.id).sort(byId);
    expect(expected.length).toBeGreaterThan(0);
    const answer = await members(admin, `?group=${lighting.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ids: expected, next: null });
    expect((await members(operator, `?group=${lighting.id}`)).body).toEqual(answer.body);
  });

  it('pages without gaps or repeats and narrows to a region\'s subtree', async () => {
    const groups = (await t.get('/group-list', admin)).body as { id: number; name: string }[];
    const lighting = groups.find((group) => group.name === 'Lighting')!;
    const all = (await members(admin, `?group=${lighting.id}`)).body.ids as number[];
    const seen: number[] = [];
    let after = 0;
    for (let page = 0; page < 100; page++) {
      const { body } = await members(admin, `?group=${lighting.id}&limit=3&after=${after}`);
      seen.push(...body.ids);
      if (body.next === null) break;
      expect(body.ids).toHaveLength(3);
      after = body.next;
    }
    expect(seen).toEqual(all);

    const list = (await t.get('/entity-list', admin)).body as { id: number; parent_id: number | null; tree_path: string }[];
    const region = list.find((e) => e.parent_id === null)!;
    const inRegion = new Set(list.filter((e) => e.tree_path === region.tree_path || e.tree_path.startsWith(`${region.tree_path}.`)).map((e) => e.id));
    const narrowed = (await members(admin, `?group=${lighting.id}&region=${region.id}`)).body.ids as number[];
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed.length).toBeLessThan(all.length);
    expect(narrowed).toEqual(all.filter((id) => inRegion.has(id)));
  });

  it('narrows to the members drawn as areas (the map\'s devices say their group themselves)', async () => {
    const groups = (await t.get('/group-list', admin)).body as { id: number; name: string; tenant_id: string }[];
    const lighting = groups.find((group) => group.name === 'Lighting')!;
    const areas = ((await t.get('/map-features?shape=areas', admin)).body.rows as number[][]).map(([id]) => id);
    // a zone joins the group beside its lamps
    await t.db.systemQuery(sql`INSERT INTO entity_groups (tenant_id, entity_id, group_id) VALUES (${lighting.tenant_id}::uuid, ${areas[0]}::int, ${lighting.id}::int)
      ON CONFLICT DO NOTHING`);
    // written past the app: the read cache hears of it from the database's notification, a moment later
    await expect.poll(async () => (await members(admin, `?group=${lighting.id}`)).body.ids).toContain(areas[0]);
    const all = (await members(admin, `?group=${lighting.id}`)).body.ids as number[];
    const shaped = (await members(admin, `?group=${lighting.id}&shape=areas`)).body.ids as number[];
    expect(shaped).toContain(areas[0]);
    expect(shaped).toEqual(all.filter((id) => areas.includes(id)));
    expect(shaped.length).toBeLessThan(all.length);
    expect((await members(admin, `?group=${lighting.id}&shape=points`)).status).toBe(400);
  });

  it('never answers another tenant\'s members, and refuses bad parameters with 400', async () => {
    const cityGroups = (await t.get('/group-list', admin)).body as { id: number }[];
    const cityRegion = ((await t.get('/entity-list', admin)).body as { id: number; parent_id: number | null }[]).find((e) => e.parent_id === null)!;
    for (const group of cityGroups) {
      expect((await members(facility, `?group=${group.id}`)).body).toEqual({ ids: [], next: null });
    }
    const [facilityGroup] = (await t.get('/group-list', facility)).body as { id: number }[];
    expect((await members(facility, `?group=${facilityGroup.id}`)).body.ids.length).toBeGreaterThan(0);
    expect((await members(facility, `?group=${facilityGroup.id}&region=${cityRegion.id}`)).body).toEqual({ ids: [], next: null });
    for (const query of ['', '?region=1', '?group=0', '?group=-1', '?group=abc', '?group=2147483648', '?group=1.5', '?group=1&limit=0',
      '?group=1&limit=50001', '?group=1&after=-1', '?group=1&region=0', '?group=1&groups=2', '?group=1,2', '?group=1%00']) {
      const answer = await members(admin, query);
      expect(answer.status, query).toBe(400);
      expect(JSON.stringify(answer.body)).not.toMatch(/SELECT|stack|\.ts:/);
    }
    expect((await t.send({ path: `/group-members?group=${cityGroups[0].id}` })).status).toBe(401);
  });
});
