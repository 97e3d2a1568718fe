// Bad input gets a 400 with field messages (never a 500), and loses nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.login('admin@demo.city')).access_token;
});
afterAll(async () => { await t?.close(); });

describe('request validation', () => {
  it.each([
    ['no input', {}, 'input', 'VALIDATION'],
    ['input of the wrong type', { input: 'secret' }, 'input', 'VALIDATION'],
    ['a missing confirmation', { input: { current_password: 'demo1234', password: 'new-password-1' } }, 'input.password_confirmation', 'VALIDATION'],
    ['a too short new password', { input: { current_password: 'demo1234', password: 'short', password_confirmation: 'short' } }, 'input.password', 'PASSWORD_TOO_SHORT'],
    ['an extra field that tries to set permissions', { input: { current_password: 'demo1234', password: 'new-password-1', password_confirmation: 'new-password-1', module_permissions: ['watcher.*'] } }, 'input.module_permissions', 'VALIDATION'],
  ])('POST /update-password with %s → 400 naming %s', async (_case, body, field, code) => {
    const { status, body: answer } = await t.post('/update-password', body, token);
    expect(status).toBe(400);
    expect(answer.errors).toContainEqual(expect.objectContaining({ code, field, message: expect.stringContaining(field) }));
  });

  it('malformed JSON is a 400, not a 500', async () => {
    const response = await t.app.inject({
      method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email": "admin@demo.city",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toBeTruthy();
  });

  it.each([
    '/entity-list?ids=1,abc', '/entity-list?depth=-1', '/entity-list?gateway=maybe', '/entity-list?unknown=1', '/entity/abc', '/entity/0',
  ])('GET %s → 400', async (path) => {
    const { status, body } = await t.get(path, token);
    expect(status).toBe(400);
    // numbers out of bounds have codes of their own (SPEC §5 texts)
    expect(['VALIDATION', 'NUMBER_MIN']).toContain(body.errors[0].code);
  });

  it('a sign-in body with extra fields is refused', async () => {
    const { status, body } = await t.post('/auth/login', { email: 'admin@demo.city', password: 'demo1234', tenant_id: 'x' });
    expect(status).toBe(400);
    expect(body.errors[0]).toMatchObject({ field: 'tenant_id', message: 'tenant_id is not allowed' });
  });

  it('unknown API paths answer a JSON 404', async () => {
    const { status, body } = await t.get('/no-such-endpoint', token);
    expect(status).toBe(404);
    expect(body.errors[0].code).toBe('NOT_FOUND');
  });
});

describe('entity filters', () => {
  it('answers entities in the documented shape', async () => {
    const all = (await t.get('/entity-list', token)).body as any[];
    expect(all.length).toBe(60);
    const device = all.find((e) => e.groups.length > 0);
    expect(Object.keys(device).sort()).toEqual(['attributes', 'entity_type', 'entity_type_id', 'geom', 'group', 'groups', 'id', 'interface', 'level',
      'name', 'parent_id', 'tree_path', 'updated_at']);
    expect(device).toMatchObject({
      id: expect.any(Number), entity_type_id: expect.any(Number), parent_id: expect.any(Number), level: 0,
      name: { en: expect.any(String) }, attributes: expect.any(Object), tree_path: expect.stringMatching(/^\d+(\.\d+)*$/),
      entity_type: { id: device.entity_type_id, name: expect.any(String), category: expect.any(String) },
      interface: { thingsboard_uuid: null, thingsboard_name: expect.any(String), is_gateway: false, fk_gateway_id: expect.any(Number) },
      group: device.groups[0],
    });
    expect(new Date(device.updated_at).toISOString()).toBe(device.updated_at);
    const region = all.find((e) => e.parent_id === null);
    expect(region).toMatchObject({ group: null, groups: [] });
    // Tree order: every entity comes after its parent.
    const seen = new Set<number>();
    for (const entity of all) {
      if (entity.parent_id !== null) expect(seen.has(entity.parent_id)).toBe(true);
      seen.add(entity.id);
    }
  });

  it('filters by ids with depth, level, type, group, search and gateway', async () => {
    const all = (await t.get('/entity-list', token)).body as any[];
    const region = all.find((e) => e.entity_type.category === 'region');
    const below = (await t.get(`/entity-list?ids=${region.id}&depth=1`, token)).body as any[];
    expect(below[0].id).toBe(region.id);
    expect(below.slice(1).every((e) => e.parent_id === region.id)).toBe(true);
    expect(below.length).toBe(1 + all.filter((e) => e.parent_id === region.id).length);

    const lampType = all.find((e) => e.entity_type.name === 'Street lamp').entity_type_id;
    const lamps = (await t.get(`/entity-list?type=${lampType}`, token)).body as any[];
    expect(lamps.length).toBe(12);
    expect(lamps.every((e) => e.entity_type_id === lampType)).toBe(true);

    const search = (await t.get(`/entity-list?search=${encodeURIComponent('staré')}`, token)).body as any[];
    expect(search.map((e) => e.name.en)).toEqual(['Old Town']);
    expect((await t.get('/entity-list?search=%25', token)).body).toEqual([]);

    const gateways = (await t.get('/entity-list?gateway=true', token)).body as any[];
    expect(gateways).toHaveLength(3);
    expect(gateways.every((g) => g.interface.is_gateway)).toBe(true);
    const behind = (await t.get(`/entity-list?gateway=${gateways[0].id}`, token)).body as any[];
    expect(behind.length).toBe(16);

    const grouped = all.find((e) => e.group);
    const inGroup = (await t.get(`/entity-list?group=${grouped.group.id}`, token)).body as any[];
    expect(inGroup.length).toBeGreaterThan(0);
    expect(inGroup.every((e) => e.groups.some((g: any) => g.id === grouped.group.id))).toBe(true);
  });

  it('search text with quotes, backslashes and SQL stays text', async () => {
    for (const search of ["' OR '1'='1", "\\'; DROP TABLE entities; --", '\\', "O'Brien", '%_']) {
      const { status, body } = await t.get(`/entity-list?search=${encodeURIComponent(search)}`, token);
      expect(status, search).toBe(200);
      expect(body, search).toEqual([]);
    }
    expect(((await t.get('/entity-list', token)).body as any[]).length).toBe(60);
  });

  it('a changed entity shows in the next list at once, on every instance (the lists are cached until a change)', async () => {
    const other = await startTestApp({ db: t.db });
    try {
      const otherToken = (await other.login('admin@demo.city')).access_token;
      const [first] = (await t.get('/entity-list?level=0', token)).body as any[];
      expect((await other.get('/entity-list?level=0', otherToken)).body[0].name).toEqual(first.name);
      await t.db.systemTx((tx) => tx.execute(sql`UPDATE entities SET name = '{"en": "Renamed"}' WHERE id = ${first.id}`));
      for (const [app, bearer] of [[t, token], [other, otherToken]] as const) {
        let names: string[] = [];
        for (let i = 0; i < 50 && !names.includes('Renamed'); i++) {
          names = ((await app.get('/entity-list?level=0', bearer)).body as any[]).map((e) => e.name.en);
          if (!names.includes('Renamed')) await new Promise((r) => setTimeout(r, 20));
        }
        expect(names).toContain('Renamed');
      }
      await t.db.systemTx((tx) => tx.execute(sql`UPDATE entities SET name = ${JSON.stringify(first.name)}::jsonb WHERE id = ${first.id}`));
    } finally {
      await other.close();
    }
  });

  it('GET /entity/{id} lists the children ids', async () => {
    const region = ((await t.get('/entity-list?level=0', token)).body as any[]).find((e) => e.parent_id === null);
    const { body } = await t.get(`/entity/${region.id}`, token);
    expect(body.children.length).toBe(3); // two zones and a gateway
    expect(body.children_count).toBe(3);
    expect(body.geom.type).toBe('Point');
  });
});
