// Signed in to Demo City, nothing of Demo Facility can be read, through REST or GraphQL.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities, groups, tenants, watchers } from '../../server/db/schema.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let cityToken: string;
let facility: { tenantId: string; entityIds: number[]; groupIds: number[]; watcherIds: number[] };

beforeAll(async () => {
  t = await startTestApp();
  cityToken = (await t.login('admin@demo.city')).access_token;
  facility = await t.db.systemTx(async (tx) => {
    const [tenant] = await tx.select().from(tenants).where(eq(tenants.name, 'Demo Facility'));
    const ids = async (table: typeof entities | typeof groups | typeof watchers) =>
      (await tx.select({ id: table.id }).from(table).where(eq(table.tenantId, tenant.id))).map((r) => r.id);
    return { tenantId: tenant.id, entityIds: await ids(entities), groupIds: await ids(groups), watcherIds: await ids(watchers) };
  });
  expect(facility.entityIds.length).toBeGreaterThan(40);
});
afterAll(async () => { await t?.close(); });

describe('tenant isolation', () => {
  it('GET /tenant and /user-me answer the caller\'s own tenant', async () => {
    expect((await t.get('/tenant', cityToken)).body.name).toBe('Demo City');
    expect((await t.get('/user-me', cityToken)).body.email).toBe('admin@demo.city');
  });

  it('GET /entity/{id} of another tenant\'s entity is 404 Entity not found', async () => {
    for (const id of facility.entityIds.slice(0, 5)) {
      const { status, body } = await t.get(`/entity/${id}`, cityToken);
      expect(status).toBe(404);
      expect(body.errors[0].message).toBe('Entity not found');
    }
  });

  it('GET /entity-list never returns another tenant\'s rows, whatever the filters', async () => {
    const all = (await t.get('/entity-list', cityToken)).body as { id: number }[];
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((e) => facility.entityIds.includes(e.id))).toEqual([]);
    const byIds = await t.get(`/entity-list?ids=${facility.entityIds.join(',')}&depth=3`, cityToken);
    expect(byIds.body).toEqual([]);
    const byGroup = await t.get(`/entity-list?group=${facility.groupIds[0]}`, cityToken);
    expect(byGroup.body).toEqual([]);
    const byGateway = await t.get(`/entity-list?gateway=${facility.entityIds[0]}`, cityToken);
    expect(byGateway.body).toEqual([]);
  });

  it('the same entity list asked by both tenants, one after the other, answers each its own', async () => {
    const facilityToken = (await t.login('admin@demo.facility')).access_token;
    for (const path of ['/entity-list', '/entity-list?level=0', '/entity-list?search=a']) {
      const city = (await t.get(path, cityToken)).body as { id: number }[];
      const ofFacility = (await t.get(path, facilityToken)).body as { id: number }[];
      expect(ofFacility.length, path).toBeGreaterThan(0);
      expect(ofFacility.every((e) => facility.entityIds.includes(e.id)), path).toBe(true);
      expect(city.some((e) => facility.entityIds.includes(e.id)), path).toBe(false);
    }
  });

  it('groups, entity types and watchers are the caller\'s only', async () => {
    const groupList = (await t.get('/group-list', cityToken)).body as { id: number; tenant_id: string }[];
    expect(groupList.length).toBeGreaterThan(0);
    expect(groupList.every((g) => !facility.groupIds.includes(g.id) && g.tenant_id !== facility.tenantId)).toBe(true);
    const tree = JSON.stringify((await t.get('/group-tree', cityToken)).body);
    expect(tree).not.toContain(facility.tenantId);
    const types = (await t.get('/entity-type-list', cityToken)).body as { tenant_id: string }[];
    expect(types.length).toBeGreaterThan(3);
    expect(types.every((type) => type.tenant_id !== facility.tenantId)).toBe(true);
    const watcherList = (await t.get('/watcher-list', cityToken)).body as { id: number }[];
    expect(watcherList.length).toBeGreaterThan(0);
    expect(watcherList.filter((w) => facility.watcherIds.includes(w.id))).toEqual([]);
  });

  it('GraphQL entity_tree of another tenant\'s entity fails; user_list lists own users only', async () => {
    const query = (q: string) => t.app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${cityToken}` }, payload: { query: q } }).then((r) => r.json());
    const tree = await query(`{ entity_tree(id: ${facility.entityIds[0]}) { id } }`);
    expect(tree.errors[0].message).toBe('Entity not found');
    const users = await query('{ user_list { email } }');
    expect(users.data.user_list.map((u: { email: string }) => u.email).sort()).toEqual(['admin@demo.city', 'operator@demo.city']);
    const own = await query('{ entity_tree(depth: 1) { id children { id } } }');
    expect(own.data.entity_tree).toHaveLength(3);
  });

  it('a body cannot pick the tenant', async () => {
    const { status } = await t.post('/update-password', { tenant_id: facility.tenantId, input: { current_password: 'x', password: 'y', password_confirmation: 'y' } }, cityToken);
    expect(status).toBe(400);
  });

  it('row-level security holds even for a query with no tenant filter', async () => {
    const counted = await t.db.tenantTx(facility.tenantId, async (tx) => (await tx.execute(sql`SELECT count(*)::int AS n FROM entities`)) as any);
    expect(counted.rows[0].n).toBe(facility.entityIds.length);
  });
});
