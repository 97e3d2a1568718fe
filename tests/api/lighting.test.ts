// Lighting profiles drive real lamps (docs/lighting.md): a profile assigned to a lamp, a group or a
// region reaches the lamp, whose level at a given instant goes out as a setDim command to a real
// MQTT client (mqtt.js) and as its shared attribute; the lamp's answer settles the command; a lamp
// that was away gets only its latest level when it comes back; commands expire; an operator's
// override holds until it ends and is logged; HTTP devices wait for their commands and attributes;
// and tenant B can neither read nor command tenant A's lamps.
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueCommands } from '../../server/db/commandQueries.ts';
import { intArrayParam } from '../../server/db/rows.ts';
import { lightTenant } from '../../server/services/lighting/lampLighting.ts';
import type { MqttListener } from '../../server/ingest/mqttListener.ts';
import { connectDevice, startDeviceApp, until, type DemoDevice } from '../support/devices.ts';
import type { TestApp } from './harness.ts';

let t: TestApp;
let listener: MqttListener;
let lamps: DemoDevice[];
let facilityLamps: DemoDevice[];
let httpUrl: string;
let admin: string;
let operator: string;
let facilityAdmin: string;
const clients: MqttClient[] = [];

beforeAll(async () => {
  ({ t, listener, lamps, facilityLamps, httpUrl } = await startDeviceApp({ lightingNow: () => lightingNow }));
  [admin, operator, facilityAdmin] = await Promise.all(['admin@demo.city', 'operator@demo.city', 'admin@demo.facility'].map(async (email) => (await t.login(email)).access_token));
  // the demo's lamps follow its night-dimming profile through their group: these tests assign their own
  await t.db.systemQuery(sql`DELETE FROM profile_groups`);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await listener?.close();
  await t?.close();
});

const graphql = async (token: string, query: string, variables: Record<string, unknown> = {}) => (await t.post('/graphql', { query, variables }, token)).body;

/** Evening (100 %), night (40 %) and day (off) in the profile below; the demo tenants' zone is UTC. */
const EVENING = Date.parse('2026-03-10T19:00:00Z');
const NIGHT = Date.parse('2026-03-10T23:30:00Z');
const DAY = Date.parse('2026-03-11T12:00:00Z');
/** Where the app decides a lamp whose override ends (the engine's clock). */
let lightingNow = DAY;
const fixedTimes = { astro_clock: false, intervals: [{ from: '18:00', to: '06:00', value: 100 }, { from: '22:00', to: '05:00', value: 40 }] };

/** POST /create-profile: its status and body (the record, or `errors`). */
async function createProfile(token: string, name: string, targets: { entity_ids?: number[]; group_ids?: number[] }) {
  return t.post('/create-profile', { input: { name, type: 'dimming_profile', definition: fixedTimes, ...targets } }, token);
}

const tenantOf = (lamp: DemoDevice) => lamp.tenantId;
const tick = (lamp: DemoDevice, at: number) => lightTenant(t.db, tenantOf(lamp), at);

/** A lamp's connection that takes its commands and attribute pushes, and remembers them. */
async function lampClient(lamp: DemoDevice, answer = true) {
  const client = await connectDevice(listener.port, lamp.token, { protocolVersion: 4 });
  clients.push(client);
  const requests: { id: number; method: string; params: { level: number } }[] = [];
  const pushes: Record<string, unknown>[] = [];
  client.on('message', (topic, payload) => {
    const json = JSON.parse(payload.toString());
    if (topic.startsWith('v1/devices/me/rpc/request/')) {
      const id = Number(topic.split('/').pop());
      requests.push({ id, ...json });
      if (answer) client.publish(`v1/devices/me/rpc/response/${id}`, JSON.stringify({ level: json.params.level }), { qos: 1 });
    } else if (topic === 'v1/devices/me/attributes') pushes.push(json);
  });
  await client.subscribeAsync(['v1/devices/me/rpc/request/+', 'v1/devices/me/attributes'], { qos: 1 });
  return { client, requests, pushes };
}

const lampLighting = async (token: string, id: number) => graphql(token, `{ lamp_lighting(entity_id: ${id}) {
  level reason reported_level override_level override_until drifting profile { id name } through { kind id }
  commands { id method params status source } } }`);

describe('assignment', () => {
  it('a lamp follows its own profile before its group\'s, and its group\'s before its region\'s; one profile per target', async () => {
    const [lamp] = lamps;
    const [{ region, groupId }] = await t.db.systemQuery<{ region: number; groupId: number }>(sql`
      SELECT split_part(e.tree_path, '.', 1)::int AS region, (SELECT group_id FROM entity_groups WHERE entity_id = e.id ORDER BY group_id LIMIT 1) AS "groupId"
      FROM entities e WHERE e.id = ${lamp.id}`);
    const regional = await createProfile(admin, 'Regional', { entity_ids: [region] });
    expect(regional.status).toBe(200);
    expect((await lampLighting(admin, lamp.id)).data.lamp_lighting).toMatchObject({ profile: { name: 'Regional' }, through: { kind: 'entity', id: String(region) } });
    const grouped = await createProfile(admin, 'Grouped', { group_ids: [groupId] });
    expect((await lampLighting(admin, lamp.id)).data.lamp_lighting).toMatchObject({ profile: { name: 'Grouped' }, through: { kind: 'group', id: String(groupId) } });
    const own = await createProfile(admin, 'Own', { entity_ids: [lamp.id] });
    expect((await lampLighting(admin, lamp.id)).data.lamp_lighting).toMatchObject({ profile: { name: 'Own' }, through: { kind: 'entity', id: String(lamp.id) } });

    // the same lamp in a second profile: refused with both names, nothing written
    const second = await createProfile(admin, 'Second', { entity_ids: [lamp.id] });
    expect(second.status).toBe(409);
    expect(second.body.errors[0]).toMatchObject({
      code: 'PROFILE_TARGET_TAKEN', field: 'entity_ids', message: `'${lamp.name}' already follows the lighting profile 'Own'. Take it out of that profile first.`,
    });
    const names = await t.db.systemQuery<{ name: string }>(sql`SELECT name FROM profiles WHERE tenant_id = ${lamp.tenantId} AND name = 'Second'`);
    expect(names).toEqual([]);
    // a second profile taking the group while the first holds it: the same refusal
    expect((await createProfile(admin, 'Second', { group_ids: [groupId] })).body.errors[0].code).toBe('PROFILE_TARGET_TAKEN');
    // the profile that holds them may change, its targets named again or not
    const evening = { astro_clock: false, intervals: [{ from: '19:00', to: '06:00', value: 80 }] };
    expect((await t.post('/update-profile', { input: { id: grouped.body.id, definition: evening } }, admin)).status).toBe(200);
    expect((await t.post('/update-profile', { input: { id: own.body.id, name: 'Own', entity_ids: [lamp.id] } }, admin)).status).toBe(200);
    expect((await lampLighting(admin, lamp.id)).data.lamp_lighting).toMatchObject({ profile: { name: 'Own' }, through: { kind: 'entity', id: String(lamp.id) } });
    for (const created of [regional, grouped, own]) expect((await t.post('/delete-profile', { input: { id: created.body.id } }, admin)).status).toBe(200);
    expect((await lampLighting(admin, lamp.id)).data.lamp_lighting).toMatchObject({ profile: null, through: null });
  });
});

describe('commands', () => {
  it('the level of the moment reaches a real MQTT client as setDim and as its shared attribute; its answer settles the command', async () => {
    const lamp = lamps[1];
    expect((await createProfile(admin, 'Evening and night', { entity_ids: [lamp.id] })).status).toBe(200);
    const device = await lampClient(lamp);
    await tick(lamp, EVENING);
    await until(() => device.requests.length === 1 && device.pushes.length === 1);
    expect(device.requests[0]).toMatchObject({ method: 'setDim', params: { level: 100 } });
    expect(device.pushes[0]).toEqual({ dim_level: 100 });
    await until(async () => (await lampLighting(admin, lamp.id)).data.lamp_lighting.commands[0]?.status === 'ok');
    const shown = (await lampLighting(admin, lamp.id)).data.lamp_lighting;
    expect(shown).toMatchObject({ level: 100, reason: 'interval', commands: [{ method: 'setDim', params: { level: 100 }, status: 'ok', source: 'lighting' }] });

    // the same level a minute later: nothing sent again; at night the level changes once
    await tick(lamp, EVENING + 60_000);
    await tick(lamp, NIGHT);
    await until(() => device.requests.length === 2);
    expect(device.requests[1].params.level).toBe(40);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(device.requests).toHaveLength(2);
  });

  it('a lamp that was away gets only its latest level when it comes back, never the ones it missed', async () => {
    const lamp = lamps[2];
    await createProfile(admin, 'While away', { entity_ids: [lamp.id] });
    await tick(lamp, EVENING);
    await tick(lamp, NIGHT);
    await tick(lamp, DAY);
    const statuses = await t.db.systemQuery<{ status: string; level: number }>(sql`
      SELECT status, (params->>'level')::int AS level FROM device_commands WHERE entity_id = ${lamp.id} ORDER BY id`);
    expect(statuses).toEqual([{ status: 'expired', level: 100 }, { status: 'expired', level: 40 }, { status: 'queued', level: 0 }]);
    const device = await lampClient(lamp);
    await until(() => device.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(device.requests.map((request) => request.params.level)).toEqual([0]);
  });

  it('a command not answered within its time to live expires', async () => {
    const lamp = lamps[3];
    await createProfile(admin, 'Expiring', { entity_ids: [lamp.id] });
    const device = await lampClient(lamp, false); // takes the command, never answers
    await tick(lamp, EVENING);
    await until(() => device.requests.length === 1);
    await until(async () => (await lampLighting(admin, lamp.id)).data.lamp_lighting.commands[0]?.status === 'delivered');
    await t.db.systemQuery(sql`UPDATE device_commands SET expires_at = now() - interval '1 second' WHERE entity_id = ${lamp.id}`);
    await t.app.downlink.commands.expire();
    expect((await lampLighting(admin, lamp.id)).data.lamp_lighting.commands[0].status).toBe('expired');
  });

  it('a failed answer is a failed command and a log row', async () => {
    const lamp = lamps[4];
    await createProfile(admin, 'Failing', { entity_ids: [lamp.id] });
    const client = await connectDevice(listener.port, lamp.token);
    clients.push(client);
    client.on('message', (topic) => {
      if (topic.startsWith('v1/devices/me/rpc/request/')) client.publish(topic.replace('request', 'response'), JSON.stringify({ error: 'driver fault' }), { qos: 1 });
    });
    await client.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
    await tick(lamp, EVENING);
    await until(async () => (await lampLighting(admin, lamp.id)).data.lamp_lighting.commands[0]?.status === 'failed');
    const logs = await t.db.systemQuery<{ type: string; message: string }>(sql`SELECT type, message FROM logs WHERE entity_id = ${lamp.id} AND message LIKE 'setDim%'`);
    expect(logs).toEqual([{ type: 'error', message: 'setDim failed: driver fault' }]);
  });
});

describe('answers', () => {
  it('answers arriving together are written together: each command ok or failed by its own answer, the first of two answers counts, another device\'s command is not answered', async () => {
    const [a, b, c] = [lamps[7], lamps[8], lamps[9]];
    const queued = await t.db.tenantTx(a.tenantId, (tx) => queueCommands(tx, a.tenantId, [a, b, c].map((lamp) => (
      { entityId: lamp.id, method: 'setDim', params: { level: 30 }, source: 'user' as const, ttlMs: 60_000 }))));
    const [forA, forB, forC] = queued.map((command) => command.id);
    const identity = (lamp: DemoDevice) => ({ tenantId: lamp.tenantId, entityId: lamp.id, entityTypeId: lamp.typeId, isGateway: false, name: lamp.name });
    const { commands } = t.app.downlink;
    // the first goes alone; the others wait for it and go in one statement
    const answered = await Promise.all([
      commands.answer(identity(c), 2_000_000_000, { level: 30 }),
      commands.answer(identity(a), forA, { level: 30 }),
      commands.answer(identity(a), forA, { error: 'second answer' }),
      commands.answer(identity(b), forB, { error: 'driver fault' }),
      commands.answer(identity(b), forC, { level: 30 }), // c's command, answered by b
    ]);
    expect(answered).toEqual([false, true, false, true, false]);
    const rows = await t.db.systemQuery<{ id: number; status: string; response: unknown }>(sql`SELECT id, status, response FROM device_commands WHERE id IN (${forA}, ${forB}, ${forC}) ORDER BY id`);
    expect(rows).toEqual([
      { id: forA, status: 'ok', response: { level: 30 } },
      { id: forB, status: 'failed', response: { error: 'driver fault' } },
      { id: forC, status: 'queued', response: null },
    ]);
    expect(await commands.answer(identity(c), forC, null)).toBe(true);
    const [last] = await t.db.systemQuery<{ status: string; response: unknown }>(sql`SELECT status, response FROM device_commands WHERE id = ${forC}`);
    expect(last).toEqual({ status: 'ok', response: null });
  });
});

describe('override', () => {
  it('an operator with the permission puts a lamp at a level for a while; the profile takes over when it ends; each is a log row', async () => {
    const lamp = lamps[5];
    await createProfile(admin, 'Overridden', { entity_ids: [lamp.id] });
    const device = await lampClient(lamp);
    await tick(lamp, DAY);
    await until(() => device.requests.length === 1);

    // the operator lacks dashboard.entity.manually_editable
    const refused = await graphql(operator, `mutation { override_lighting(entity_ids: [${lamp.id}], level: 70, minutes: 30) { entity_ids } }`);
    expect(refused.errors[0].extensions.code).toBe('FORBIDDEN');

    const done = await graphql(admin, `mutation { override_lighting(entity_ids: [${lamp.id}], level: 70, minutes: 30) { entity_ids until } }`);
    expect(done.data.override_lighting.entity_ids).toEqual([String(lamp.id)]);
    await until(() => device.requests.length === 2);
    expect(device.requests[1].params.level).toBe(70);
    expect((await lampLighting(admin, lamp.id)).data.lamp_lighting).toMatchObject({ level: 70, reason: 'override', override_level: 70 });
    await tick(lamp, DAY + 60_000); // the profile says off: the override holds
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(device.requests).toHaveLength(2);

    // the end decides the lamp at once, as the profile says now: no tick needed, and read as such at once
    lightingNow = DAY + 120_000;
    await graphql(admin, `mutation { end_lighting_override(entity_ids: [${lamp.id}]) { entity_ids } }`);
    expect((await lampLighting(admin, lamp.id)).data.lamp_lighting).toMatchObject({ level: 0, reason: 'off', override_level: null });
    await until(() => device.requests.length === 3);
    expect(device.requests[2].params.level).toBe(0);
    const logs = await t.db.systemQuery<{ message: string }>(sql`SELECT message FROM logs WHERE source = 'profile' AND entity_id = ${lamp.id} ORDER BY id`);
    expect(logs.map((log) => log.message)).toEqual(['Lighting override: 1 lamp(s) at 70 % for 30 min', 'Lighting override ended: 1 lamp(s) follow their profile again']);
  });

  it('tenant B can neither read nor override tenant A\'s lamps', async () => {
    const lamp = lamps[0];
    const read = await lampLighting(facilityAdmin, lamp.id);
    expect(read.errors[0]).toMatchObject({ message: 'Entity not found' });
    const override = await graphql(facilityAdmin, `mutation { override_lighting(entity_ids: [${lamp.id}], level: 10, minutes: 5) { entity_ids } }`);
    expect(override.errors[0].extensions.code).toBe('LAMPS_NOT_FOUND');
    const states = await t.db.systemQuery(sql`SELECT 1 FROM lamp_states WHERE entity_id = ${lamp.id} AND override_level = 10`);
    expect(states).toEqual([]);
    // a facility lamp answers the facility, not the city
    expect((await lampLighting(admin, facilityLamps[0].id)).errors[0].message).toBe('Entity not found');
  });

  it('refuses a level out of range, no target, and an override longer than a day', async () => {
    for (const args of ['entity_ids: [1], level: 101, minutes: 5', 'level: 50, minutes: 5', 'entity_ids: [1], level: 50, minutes: 1441', 'entity_ids: [], level: 50, minutes: 5']) {
      const answer = await graphql(admin, `mutation { override_lighting(${args}) { entity_ids } }`);
      expect(answer.data, args).toBeNull();
      expect(answer.errors[0].message, args).not.toMatch(/SELECT|at .*\.ts|undefined/);
    }
  });
});

describe('the tick', () => {
  it('decides a tenant\'s lamps a window at a time: every lamp gets its level and one command, and the next tick is set once at the end', async () => {
    expect(facilityLamps.length).toBeGreaterThanOrEqual(3); // windows of two: at least two windows
    const tenantId = tenantOf(facilityLamps[0]);
    const ids = facilityLamps.map((lamp) => lamp.id);
    const profile = await t.post('/create-profile', { input: { name: 'Windowed', type: 'dimming_profile', definition: fixedTimes, entity_ids: ids } }, facilityAdmin);
    expect(profile.status).toBe(200);
    await t.db.systemQuery(sql`INSERT INTO lighting_ticks (tenant_id, claimed_until) VALUES (${tenantId}, now() + interval '1 minute')
      ON CONFLICT (tenant_id) DO UPDATE SET claimed_until = excluded.claimed_until`);
    expect(await lightTenant(t.db, tenantId, EVENING, { windowSize: 2 })).toBe(ids.length);
    const states = await t.db.systemQuery<{ entity_id: number; level: number }>(sql`SELECT entity_id, level FROM lamp_states WHERE entity_id = ANY(${intArrayParam(ids)}) ORDER BY entity_id`);
    expect(states).toEqual([...ids].sort((a, b) => a - b).map((id) => ({ entity_id: id, level: 100 })));
    const commands = await t.db.systemQuery<{ entity_id: number }>(sql`SELECT entity_id FROM device_commands WHERE entity_id = ANY(${intArrayParam(ids)}) AND method = 'setDim'`);
    expect(commands.map((command) => command.entity_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    const [next] = await t.db.systemQuery<{ due_ms: number; claimed_until: string | null }>(sql`
      SELECT (extract(epoch FROM due_at) * 1000)::float8 AS due_ms, claimed_until FROM lighting_ticks WHERE tenant_id = ${tenantId}`);
    expect(next).toEqual({ due_ms: EVENING + 60_000, claimed_until: null });
    // the same tick again (a tick cut short is run whole again): nothing changes, nothing is sent twice
    expect(await lightTenant(t.db, tenantId, EVENING, { windowSize: 2 })).toBe(0);
    expect((await t.post('/delete-profile', { input: { id: profile.body.id } }, facilityAdmin)).status).toBe(200);
  });
});

describe('HTTP devices', () => {
  it('wait for their command (408 when none comes), answer it, ask for attributes and the time', async () => {
    const lamp = lamps[6];
    const base = `http://${httpUrl}/api/v1/${lamp.token}`;
    const empty = await fetch(`${base}/rpc?timeout=300`);
    expect(empty.status).toBe(408);

    await createProfile(admin, 'Polled', { entity_ids: [lamp.id] });
    const waiting = fetch(`${base}/rpc?timeout=5000`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await tick(lamp, EVENING);
    const command = await (await waiting).json() as { id: number; method: string; params: { level: number } };
    expect(command).toMatchObject({ method: 'setDim', params: { level: 100 } });
    const answered = await fetch(`${base}/rpc/${command.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ level: 100 }) });
    expect(answered.status).toBe(200);
    expect((await lampLighting(admin, lamp.id)).data.lamp_lighting.commands[0].status).toBe('ok');
    const again = await fetch(`${base}/rpc/${command.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(again.status).toBe(404);

    const attributes = await (await fetch(`${base}/attributes?sharedKeys=dim_level&clientKeys=serial`)).json();
    expect(attributes).toEqual({ client: {}, shared: { dim_level: 100 } });
    const time = await fetch(`${base}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'getCurrentTime', params: {} }) });
    expect(Math.abs(Number(await time.text()) - Date.now())).toBeLessThan(5_000);
    const unknown = await fetch(`${base}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'reboot' }) });
    expect(unknown.status).toBe(400);
    expect((await fetch(`http://${httpUrl}/api/v1/not-a-token/rpc?timeout=10`)).status).toBe(401);
  });
});
