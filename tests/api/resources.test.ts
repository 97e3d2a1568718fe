// The models' doors as API clients use them: every action of watchers, schedulers, profiles,
// KPIs, logs, notification rules and entity deletion; the operator's refusals; tenant B unable
// to read, change or delete tenant A's records by id (REST and GraphQL); live changes.
import { sql } from 'drizzle-orm';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.ts';
import { logs, users } from '../../server/db/schema.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facility: string;
let adminId: string;
let operatorId: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
  adminId = (await t.get('/user-me', admin)).body.id;
  operatorId = (await t.get('/user-me', operator)).body.id;
});
afterAll(async () => { await t?.close(); });

const gql = async (token: string, query: string, variables?: Record<string, unknown>) =>
  t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });

const watcherInput = (name: string) => ({ name, query: { key: 'temperature', aggregation: 'avg' }, condition: { operator: '>', kind: 'number', value: 30 }, interval: 120 });

describe('watchers (REST)', () => {
  it('lists, creates, changes and deletes, with audit fields and the alert state', async () => {
    const list = await t.send({ path: '/watcher-list', token: admin });
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBe(String(list.body.length));
    // the demo's watcher, its alert as the watcher engine last found it
    expect(list.body.find((w: any) => w.name === 'High temperature')).toMatchObject({ status: 'active', alert: expect.any(Boolean) });

    const created = await t.post('/create-watcher', { input: watcherInput('Hot rooms') }, admin);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Hot rooms', status: 'active', alert: false, triggered_at: null, last_updated_by: adminId, interval: 120 });
    expect(created.body).toHaveProperty('result');

    const updated = await t.post('/update-watcher', { input: { id: created.body.id, name: 'Hot rooms 2', status: 'inactive' } }, admin);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, name: 'Hot rooms 2', status: 'inactive', condition: { operator: '>', value: 30 } });
    expect(Date.parse(updated.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.updated_at));

    expect((await t.post('/delete-watcher', { id: created.body.id }, admin)).body).toEqual({ id: created.body.id });
    expect((await t.post('/delete-watcher', { id: created.body.id }, admin)).status).toBe(404);
  });

  it('pages, sorts, filters and searches on the server', async () => {
    for (const name of ['Alpha watch', 'Beta watch', 'Gamma watch']) await t.post('/create-watcher', { input: watcherInput(name) }, admin);
    const page = await t.send({ path: '/watcher-list?search=watch&sort=name&order=desc&page=2&per_page=2', token: admin });
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.body.map((w: any) => w.name)).toEqual(['Alpha watch']);
    const [all, alerting] = await Promise.all([t.get('/watcher-list', admin), t.get('/watcher-list?alert=true', admin)]);
    expect(alerting.body.map((w: any) => w.id)).toEqual(all.body.filter((w: any) => w.alert).map((w: any) => w.id));
    expect((await t.get('/watcher-list?sort=password', admin)).status).toBe(400);
  });

  it('applies between with two values, and says which field is wrong in SPEC words', async () => {
    const between = await t.post('/create-watcher', { input: { ...watcherInput('Band'), condition: { operator: 'between', kind: 'number', value: 1 } } }, admin);
    expect(between.status).toBe(400);
    expect(between.body.errors[0]).toMatchObject({ field: 'input.condition.value_to', message: 'input.condition.value_to is required' });
    const tooLong = await t.post('/create-watcher', { input: { ...watcherInput('Slow'), interval: 90_000 } }, admin);
    expect(tooLong.body.errors[0]).toMatchObject({ code: 'NUMBER_MAX', field: 'input.interval', message: 'The interval field must be 86400 or less' });
  });

  it('refuses entity ids of another tenant', async () => {
    const theirs = (await t.get('/entity-list', facility)).body[0].id;
    const refused = await t.post('/create-watcher', { input: { ...watcherInput('Sneaky'), entity_ids: [theirs] } }, admin);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'REFERENCE_NOT_FOUND', field: 'entity_ids' });
  });
});

describe('the operator (dashboard and logs, no permission)', () => {
  it('may read watchers but not change them, and may not use the studio models', async () => {
    expect((await t.get('/watcher-list', operator)).status).toBe(200);
    const refused = await t.post('/create-watcher', { input: watcherInput('Nope') }, operator);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toMatchObject({ code: 'FORBIDDEN', params: { permission: 'watcher.*' } });
    expect((await t.get('/scheduler-list', operator)).status).toBe(403);
    expect((await t.get('/profile-list', operator)).status).toBe(403);
    const kpi = await gql(operator, 'mutation { create_kpi(name: {en: "x"}, query: [{key: "a", aggregation: "avg"}], definition: {chart: "line"}) { id } }');
    expect(kpi.status).toBe(403);
    expect(kpi.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('reads logs and changes their status, one by one', async () => {
    // the demo writes no log rows: four of this test's own
    await t.db.systemTx(async (tx) => {
      const [{ tenantId }] = await tx.select({ tenantId: users.tenantId }).from(users).where(sql`email = 'operator@demo.city'`);
      await tx.insert(logs).values([
        { tenantId, type: 'informational', source: 'system', message: 'Test entry 1' },
        { tenantId, type: 'warning', source: 'system', message: 'Test entry 2' },
        { tenantId, type: 'error', source: 'system', message: 'Test entry 3', status: 'seen' },
        { tenantId, type: 'notice', source: 'system', message: 'Test entry 4', status: 'done' },
      ]);
    });
    const { body } = await gql(operator, '{ log_list(page: 1, per_page: 2) { meta { pagination { total per_page current_page total_pages } } data { id status } } }');
    expect(body.data.log_list.meta.pagination).toEqual({ total: 4, per_page: 2, current_page: 1, total_pages: 2 });
    const [first] = body.data.log_list.data;
    const handling = 'id status acknowledged_by acknowledged_at resolved_by resolved_at';
    const seen = await gql(operator, `mutation($id: ID!) { update_log(id: $id, status: "seen") { ${handling} } }`, { id: first.id });
    expect(seen.body.data.update_log).toMatchObject({ id: first.id, status: 'seen', acknowledged_by: 'operator@demo.city', resolved_by: null, resolved_at: null });
    const acknowledgedAt = seen.body.data.update_log.acknowledged_at;
    expect(Date.parse(acknowledgedAt)).toBeGreaterThan(Date.now() - 60_000);
    // resolved by another user: the first acknowledgement is kept
    const changed = await gql(admin, `mutation($id: ID!) { update_log(id: $id, status: "done") { ${handling} } }`, { id: first.id });
    expect(changed.body.data.update_log).toMatchObject({ id: first.id, status: 'done', acknowledged_by: 'operator@demo.city', acknowledged_at: acknowledgedAt, resolved_by: 'admin@demo.city' });
    expect(Date.parse(changed.body.data.update_log.resolved_at)).toBeGreaterThan(Date.now() - 60_000);
    // a client cannot write them itself
    const forged = await gql(operator, 'mutation($id: ID!) { update_log(id: $id, status: "done", resolved_by: "someone@else") { id } }', { id: first.id });
    expect(forged.body.errors?.length).toBeGreaterThan(0);
    const filtered = await gql(operator, '{ log_list(type: "warning,error") { data { type } } }');
    expect(new Set(filtered.body.data.log_list.data.map((log: any) => log.type))).toEqual(new Set(['warning', 'error']));
  });
});

describe('tenant isolation', () => {
  it('tenant B can neither read, change nor delete tenant A\'s records by id', async () => {
    const watcher = (await t.post('/create-watcher', { input: watcherInput('City only') }, admin)).body;
    expect((await t.get('/watcher-list', facility)).body.some((w: any) => w.name === 'City only')).toBe(false);
    expect((await t.post('/update-watcher', { input: { id: watcher.id, name: 'Taken' } }, facility)).status).toBe(404);
    expect((await t.post('/delete-watcher', { id: watcher.id }, facility)).status).toBe(404);
    const read = await gql(facility, 'query($id: ID!) { watcher(id: $id) { id name } }', { id: watcher.id });
    expect(read.body.data.watcher).toBeNull();
    expect(read.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const kpi = (await gql(admin, '{ kpi_list { id } }')).body.data.kpi_list[0].id;
    expect((await gql(facility, 'query($id: ID!) { kpi(id: $id) { id } }', { id: kpi })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(facility, 'mutation($id: ID!) { update_kpi(id: $id, category: "x") { id } }', { id: kpi })).status).toBe(404);
    expect((await gql(facility, 'mutation($id: ID!) { delete_kpi(id: $id) { id } }', { id: kpi })).status).toBe(404);
    expect((await gql(admin, 'query($id: ID!) { kpi(id: $id) { category } }', { id: kpi })).body.data.kpi.category).toBe('environment');
  });
});

describe('schedulers', () => {
  it('computes next_run_at from the cron in the tenant\'s time zone', async () => {
    await t.db.systemQuery(sql`UPDATE tenants SET attributes = attributes || '{"timezone":"Europe/Bratislava"}' WHERE name = 'Demo City'`);
    const input = { name: 'Daily 6:00', definition: { kind: 'periodic', expression: '0 6 * * *', aggregation: 'avg', key: 'energy', time_slot: 'last-week', target_attribute: 'energy_avg' } };
    const { status, body } = await t.post('/create-scheduler', { input }, admin);
    expect(status).toBe(200);
    const next = new Date(body.next_run_at);
    const hour = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Bratislava', hour: 'numeric', hourCycle: 'h23' }).format(next);
    expect(Number(hour)).toBe(6);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const bad = await t.post('/create-scheduler', { input: { ...input, definition: { ...input.definition, expression: '61 * * * *' } } }, admin);
    expect(bad.body.errors[0]).toMatchObject({ code: 'CRON_INVALID', field: 'input.definition.expression' });
    // a day of month 0 is in the field's range (SPEC §5) but no day: never runs, said on create and on activation, never a 500
    const never = await t.post('/create-scheduler', { input: { ...input, definition: { ...input.definition, expression: '0 6 0 * *' } } }, admin);
    expect(never.status).toBe(400);
    expect(never.body.errors[0]).toMatchObject({ code: 'CRON_NEVER_RUNS', message: 'This schedule never runs', field: 'definition.expression' });
    const paused = await t.post('/create-scheduler', { input: { ...input, status: 'inactive', name: 'Paused' } }, admin);
    expect(paused.status).toBe(200);
    const activated = await t.post('/update-scheduler', { input: { id: paused.body.id, status: 'active', definition: { ...input.definition, expression: '0 0 31 2 *' } } }, admin);
    expect(activated.body.errors?.[0]).toMatchObject({ code: 'CRON_NEVER_RUNS' });
    // a day 0 with Mondays runs on Mondays
    const mondays = await t.post('/create-scheduler', { input: { ...input, name: 'Mondays', definition: { ...input.definition, expression: '0 6 0 * 1' } } }, admin);
    expect(mondays.status).toBe(200);
    expect(new Intl.DateTimeFormat('en', { timeZone: 'Europe/Bratislava', weekday: 'short' }).format(new Date(mondays.body.next_run_at))).toBe('Mon');
  });

  it('allows the complex-query aggregation only with scheduler.complex_query', async () => {
    await t.db.systemTx(async (tx) => {
      const [{ tenantId }] = await tx.select({ tenantId: users.tenantId }).from(users).where(sql`email = 'admin@demo.city'`);
      await tx.insert(users).values({ tenantId, username: 'Planner', email: 'planner@demo.city', passwordHash: await hashPassword('demo1234'), modules: ['factory-studio'], modulePermissions: ['scheduler.*'] });
    });
    const planner = (await t.login('planner@demo.city')).access_token;
    const input = { name: 'Complex', definition: { kind: 'periodic', expression: '0 * * * *', aggregation: 'complex-query', query: 'avg(energy)', time_slot: 'last-week', target_attribute: 't' } };
    const refused = await t.post('/create-scheduler', { input }, planner);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toMatchObject({ field: 'definition.aggregation', params: { permission: 'scheduler.complex_query' } });
    expect((await t.post('/create-scheduler', { input: { ...input, definition: { ...input.definition, aggregation: 'sum', key: 'energy' } } }, planner)).status).toBe(200);
    const complex = await t.post('/create-scheduler', { input }, admin);
    expect(complex.status).toBe(200);
    // changing a value needs its permission as stored too: the planner cannot turn the administrator's complex query into another aggregation
    const turned = await t.post('/update-scheduler', { input: { id: complex.body.id, definition: { ...input.definition, aggregation: 'sum', key: 'energy' } } }, planner);
    expect(turned.status).toBe(403);
    expect(turned.body.errors[0]).toMatchObject({ field: 'definition.aggregation', params: { permission: 'scheduler.complex_query' } });
    expect((await t.get('/scheduler-list', admin)).body.find((row: { id: number }) => row.id === complex.body.id).definition).toMatchObject({ aggregation: 'complex-query' });
    // a field it may change still changes
    expect((await t.post('/update-scheduler', { input: { id: complex.body.id, name: 'Complex, renamed' } }, planner)).status).toBe(200);
  });
});

describe('the tenant of a record', () => {
  it('KPIs and lighting profiles carry their tenant_id (SPEC §3), the caller\'s own, which a write cannot set', async () => {
    const tenant = (await t.get('/tenant', admin)).body.id;
    const [kpi] = (await t.get('/kpi-list', admin)).body;
    const [profile] = (await t.get('/profile-list', admin)).body;
    expect(kpi.tenant_id).toBe(tenant);
    expect(profile.tenant_id).toBe(tenant);
    const forged = await t.post('/create-profile', { input: { name: 'Forged', type: 'dimming_profile', tenant_id: '00000000-0000-4000-8000-000000000000', definition: { intervals: [] } } }, admin);
    expect(forged.status).toBe(400);
  });
});

describe('lighting profiles', () => {
  it('filters by type and refuses a 17th interval', async () => {
    const dimming = await t.get('/profile-list?type=dimming_profile', admin);
    expect(dimming.body.map((p: any) => p.type)).toEqual(['dimming_profile']);
    const intervals = (n: number) => Array.from({ length: n }, (_v, i) => ({ from: `${String(i).padStart(2, '0')}:00`, to: `${String(i).padStart(2, '0')}:30`, value: 50 }));
    const ok = await t.post('/create-profile', { input: { name: 'Sixteen', type: 'dimming_profile', definition: { intervals: intervals(16) } } }, admin);
    expect(ok.status).toBe(200);
    const refused = await t.post('/create-profile', { input: { name: 'Seventeen', type: 'dimming_profile', definition: { intervals: intervals(17) } } }, admin);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'PROFILE_TOO_MANY_INTERVALS', message: 'It is not possible to create more than 16 intervals.', field: 'input.definition.intervals' });
    expect((await t.post('/delete-profile', { input: { id: ok.body.id } }, admin)).status).toBe(200);
  });
});

describe('KPI definitions (GraphQL)', () => {
  it('creates with a multilingual name and groups, lists by group and module, changes and deletes', async () => {
    const group = (await t.get('/group-list', admin)).body[0].id;
    const created = await gql(admin, `mutation($group: Int!) { create_kpi(name: {en: "Energy", sk: "Energia"}, category: "energy", group_ids: [$group],
      query: [{key: "energy", aggregation: "sum"}], definition: {chart: "bar"}) { id name group_ids group updated_at } }`, { group });
    expect(created.body.errors).toBeUndefined();
    const kpi = created.body.data.create_kpi;
    expect(kpi).toMatchObject({ name: { en: 'Energy', sk: 'Energia' }, group_ids: [group], group: { id: group } });
    const listed = await gql(admin, 'query($g: ID) { kpi_list(group: $g, module: "factory-dashboard") { id } }', { g: group });
    expect(listed.body.data.kpi_list.map((k: any) => k.id)).toContain(kpi.id);
    expect((await t.get(`/kpi-list?group=${group}`, admin)).body.map((k: any) => String(k.id))).toContain(kpi.id);
    const gauge = await gql(admin, 'mutation($id: ID!) { update_kpi(id: $id, definition: {chart: "gauge"}) { id } }', { id: kpi.id });
    expect(gauge.body.errors[0]).toMatchObject({ extensions: { code: 'VALIDATION', field: 'definition.max' } });
    const deleted = await gql(admin, 'mutation($id: ID!) { delete_kpi(id: $id) { id deleted } }', { id: kpi.id });
    expect(deleted.body.data.delete_kpi).toEqual({ id: kpi.id, deleted: true });
  });
});

describe('notification rules', () => {
  it('belong to their user: user_uuid from the caller, lists and changes only the caller\'s own', async () => {
    const created = await gql(operator, 'mutation { create_notification(channels: ["email"], log_filter: {type: ["error"], sources: [{model_name: "watcher"}]}) { id user_uuid } }');
    expect(created.body.data.create_notification.user_uuid).toBe(operatorId);
    const spoofed = await gql(operator, `mutation { create_notification(user_uuid: "${adminId}", channels: ["email"], log_filter: {type: ["error"]}) { id } }`);
    expect(spoofed.status).toBe(400);
    const mine = (await t.get('/notification-list', operator)).body;
    expect(mine.map((n: any) => n.user_uuid)).toEqual([operatorId]);
    const adminRules = (await t.get('/notification-list', admin)).body;
    expect(adminRules.every((n: any) => n.user_uuid === adminId)).toBe(true);
    const foreign = await gql(operator, 'mutation($id: ID!) { update_notification(id: $id, active: false) { id } }', { id: adminRules[0].id });
    expect(foreign.status).toBe(404);
  });
});

describe('entities', () => {
  it('keeps tree paths, hides the access token without permission and refuses to delete what is used', async () => {
    const types = (await t.get('/entity-type-list', admin)).body;
    const lamp = types.find((type: any) => type.name === 'Street lamp').id;
    const parent = (await t.get('/entity-list?level=0', admin)).body[0];
    const created = await gql(admin, `mutation($type: Int!, $parent: Int) { create_entity(entity_type_id: $type, parent_id: $parent, name: {en: "New lamp"}, access_token: "lamp-token-1234567890") { id tree_path access_token } }`, { type: lamp, parent: parent.id });
    const entity = created.body.data.create_entity;
    expect(entity.tree_path).toBe(`${parent.tree_path}.${entity.id}`);
    expect(entity.access_token).toBe('lamp-token-1234567890');
    await t.db.systemQuery(sql`UPDATE users SET modules = '{factory-dashboard,factory-studio}' WHERE email = 'operator@demo.city'`);
    const studioOperator = (await t.login('operator@demo.city')).access_token;
    const seen = await gql(studioOperator, 'query($id: ID!) { entity(id: $id) { id access_token } }', { id: entity.id });
    expect(seen.body.data.entity).toEqual({ id: entity.id, access_token: null });
    const write = await gql(studioOperator, 'mutation($id: ID!) { update_entity(id: $id, access_token: "stolen-token-1234567890") { id } }', { id: entity.id });
    expect(write.status).toBe(403);

    const watcher = (await t.post('/create-watcher', { input: { ...watcherInput('Lamp watch'), entity_ids: [Number(entity.id)] } }, admin)).body;
    const blocked = await gql(admin, 'mutation($id: ID!) { delete_entity(id: $id) { deleted watcherNames schedulerNames childrenIds } }', { id: entity.id });
    expect(blocked.body.data.delete_entity).toEqual({ deleted: false, watcherNames: ['Lamp watch'], schedulerNames: [], childrenIds: [] });
    const parentBlocked = await gql(admin, 'mutation($id: ID!) { delete_entity(id: $id) { deleted childrenIds } }', { id: parent.id });
    expect(parentBlocked.body.data.delete_entity.deleted).toBe(false);
    await t.post('/delete-watcher', { id: watcher.id }, admin);
    expect((await gql(admin, 'mutation($id: ID!) { delete_entity(id: $id) { deleted } }', { id: entity.id })).body.data.delete_entity.deleted).toBe(true);
  });
});

describe('live changes (resource_changed)', () => {
  it('reach subscribers of the same tenant with the record, never another tenant, and owner-only rules only their owner', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
    const listen = (token: string, resource: string) => {
      const received: any[] = [];
      const client = createClient({ url, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
      client.subscribe({ query: `subscription { resource_changed(resource: "${resource}") { resource action id record } }` }, {
        next: (value) => received.push(value.data?.resource_changed ?? value.errors), error: (error) => received.push(error), complete: () => {},
      });
      return { received, client };
    };
    const city = listen(admin, 'watcher');
    const other = listen(facility, 'watcher');
    const rules = listen(admin, 'notification');
    const forbidden = listen(operator, 'scheduler');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const created = (await t.post('/create-watcher', { input: watcherInput('Live one') }, admin)).body;
    await gql(operator, 'mutation { create_notification(channels: ["email"], log_filter: {type: ["alert"]}) { id } }');
    const until = Date.now() + 5000;
    while (!city.received.length && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(city.received).toEqual([{ resource: 'watcher', action: 'created', id: String(created.id), record: expect.objectContaining({ name: 'Live one' }) }]);
    expect(other.received).toEqual([]);
    expect(rules.received).toEqual([]);
    expect(JSON.stringify(forbidden.received)).toContain('You do not have permission to do this (it needs the module factory-studio)');
    await Promise.all([city, other, rules, forbidden].map(({ client }) => client.dispose()));
  });
});
