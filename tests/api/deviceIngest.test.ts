// Devices talk to the server over MQTT (real clients: mqtt.js and Debian's mosquitto_pub) and
// HTTP, with ThingsBoard's device API: telemetry is stored once acknowledged, bad tokens are
// refused with return code 5, gateways create their devices, attributes and connectivity reach
// the entity and its live subscribers, and bad input is refused without hurting the connection.
import { sql } from 'drizzle-orm';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttListener } from '../../server/ingest/mqttListener.ts';
import { connectDevice, demoDevices, isProbe, mosquittoPub, startDeviceApp, startListener, storedPoints, until, untilSubscribed, type DemoDevice } from '../support/devices.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let listener: MqttListener;
let lamps: DemoDevice[];
let facilityLamps: DemoDevice[];
let cityGateway: DemoDevice;
let facilityGateway: DemoDevice;
let httpUrl: string;

beforeAll(async () => {
  ({ t, httpUrl, listener, lamps, facilityLamps, cityGateway, facilityGateway } = await startDeviceApp());
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

const graphql = async (token: string, query: string, variables: Record<string, unknown> = {}) =>
  (await t.post('/graphql', { query, variables }, token)).body;

describe('MQTT device API', () => {
  it('stores telemetry published by mosquitto_pub, acknowledged only once stored', async () => {
    const lamp = lamps[0];
    const result = await mosquittoPub(listener.port, lamp.token, 'v1/devices/me/telemetry', JSON.stringify({ ts: 1_767_225_600_000, values: { power: 42.5, mode: 'eco', on: true, info: { fw: '1.2' } } }));
    expect(result).toEqual({ code: 0, output: '' });
    // mosquitto_pub exits after the PUBACK: the points are there without waiting.
    expect(await storedPoints(t, lamp.id, 'power')).toContainEqual({ ts: '2026-01-01T00:00:00.000Z', value_num: 42.5, value_text: null, value_bool: null, value_json: null });
    expect((await storedPoints(t, lamp.id, 'mode'))[0]).toMatchObject({ value_text: 'eco' });
    expect((await storedPoints(t, lamp.id, 'on'))[0]).toMatchObject({ value_bool: true, value_num: 1 });
    expect((await storedPoints(t, lamp.id, 'info'))[0]).toMatchObject({ value_json: { fw: '1.2' } });

    // …and read back as a KPI: its series through GET /kpi-data.
    await mosquittoPub(listener.port, lamp.token, 'v1/devices/me/telemetry', JSON.stringify({ ts: 1_767_225_600_000 + 1_800_000, values: { power: 40.5 } }));
    const admin = (await t.login('admin@demo.city')).access_token;
    const created = await graphql(admin, 'mutation($name: JSON, $query: JSON, $definition: JSON) { create_kpi(name: $name, query: $query, definition: $definition) { id } }', {
      name: { en: 'Lamp power' }, query: [{ key: 'power', aggregation: 'avg', entity_ids: [lamp.id] }],
      definition: { chart: 'line', time_interval: '1h', date_range: { from: '2026-01-01T00:00:00Z', to: '2026-01-01T02:00:00Z' } },
    });
    const answer = await t.get(`/kpi-data?id=${created.data.create_kpi.id}&timezone=Europe/Bratislava`, admin);
    expect(answer.status).toBe(200);
    expect(answer.body.series[0].data).toEqual([{ ts: '2026-01-01T00:00:00.000Z', value: 41.5 }]);
  });

  it('stores the array form and values without ts at the time of arrival (mqtt.js, QoS 1)', async () => {
    const lamp = lamps[1];
    const client = await connectDevice(listener.port, lamp.token);
    const before = Date.now();
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify([{ dim_level: 55 }, { ts: 1_767_225_660_000, values: { dim_level: 60 } }]), { qos: 1 });
    const points = await storedPoints(t, lamp.id, 'dim_level');
    expect(points.find((p) => p.ts === '2026-01-01T00:01:00.000Z')?.value_num).toBe(60);
    const live = points.filter((p) => Date.parse(p.ts) >= before - 5 && p.value_num === 55);
    expect(live).toHaveLength(1);
    await client.endAsync();
  });

  it('refuses a missing or unknown token with CONNACK return code 5', async () => {
    for (const token of [undefined, 'not-a-token-of-anyone']) {
      const error = await connectDevice(listener.port, token).then(() => undefined, (e: { code?: number }) => e);
      expect(error?.code).toBe(5);
    }
    expect(t.app.ingestion.problems.totals().bad_token).toBeGreaterThanOrEqual(2);
    const result = await mosquittoPub(listener.port, 'wrong-token-123', 'v1/devices/me/telemetry', '{"a":1}');
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/not authori[sz]ed/i);
  });

  it('merges client attributes into the entity and marks connect and disconnect', async () => {
    const lamp = lamps[2];
    const client = await connectDevice(listener.port, lamp.token);
    const attributesOf = async () => (await t.db.systemQuery<{ attributes: Record<string, unknown> }>(sql`SELECT attributes FROM entities WHERE id = ${lamp.id}`))[0].attributes;
    await until(async () => (await attributesOf()).active === true);
    await client.publishAsync('v1/devices/me/attributes', JSON.stringify({ firmware: '3.1.4', model: 'L-200' }), { qos: 1 });
    expect(await attributesOf()).toMatchObject({ firmware: '3.1.4', model: 'L-200', active: true, serial: expect.any(String) });
    expect(typeof (await attributesOf()).lastActivityTime).toBe('number');
    await client.endAsync();
    await until(async () => (await attributesOf()).active === false);
    // the log entry follows the attributes (a statement later)
    const messages = async () => (await t.db.systemQuery<{ message: string }>(sql`SELECT message FROM logs WHERE entity_id = ${lamp.id} AND source = 'device' ORDER BY id`)).map((l) => l.message);
    await until(async () => (await messages()).includes('Device disconnected'));
    expect(await messages()).toEqual(['Device connected', 'Device disconnected']);
  });

  it('marks every one of many devices connecting at once active and logs each once; one coming and going at once ends inactive, logged in order', async () => {
    // 150 devices like the first lamp, each with its own token, connecting together (a restart)
    const made = await t.db.systemQuery<{ id: number; access_token: string }>(sql`
      INSERT INTO entities (tenant_id, entity_type_id, parent_id, name, attributes, level, tree_path, access_token)
      SELECT tenant_id, entity_type_id, parent_id, json_build_object('en', 'Storm lamp ' || n), '{}'::json, level, '', 'storm-token-' || n
      FROM entities, generate_series(1, 150) n WHERE id = ${lamps[0].id}
      RETURNING id, access_token`);
    const clients = await Promise.all(made.map((device) => connectDevice(listener.port, device.access_token)));
    const ids = `{${made.map((device) => device.id).join(',')}}`;
    const count = async (query: ReturnType<typeof sql>) => Number((await t.db.systemQuery<{ n: number }>(query))[0].n);
    await until(async () => await count(sql`SELECT count(*)::int AS n FROM entities WHERE id = ANY(${ids}::int[]) AND attributes->'active' = 'true'::jsonb`) === made.length);
    await until(async () => await count(sql`SELECT count(*)::int AS n FROM logs WHERE entity_id = ANY(${ids}::int[]) AND message = 'Device connected'`) === made.length);
    expect(await count(sql`SELECT count(*)::int AS n FROM logs WHERE entity_id = ANY(${ids}::int[])`)).toBe(made.length);

    // one of them leaves and comes back three times, as fast as it can
    const [first, ...others] = clients;
    await first.endAsync();
    for (let i = 0; i < 3; i++) await (await connectDevice(listener.port, made[0].access_token)).endAsync();
    const messages = async () => (await t.db.systemQuery<{ message: string }>(sql`SELECT message FROM logs WHERE entity_id = ${made[0].id} ORDER BY id`)).map((l) => l.message);
    await until(async () => (await messages()).length === 8);
    expect(await messages()).toEqual(Array.from({ length: 4 }, () => ['Device connected', 'Device disconnected']).flat());
    expect(await count(sql`SELECT count(*)::int AS n FROM entities WHERE id = ${made[0].id} AND attributes->'active' = 'false'::jsonb`)).toBe(1);
    await Promise.all(others.map((client) => client.endAsync()));
    await until(async () => await count(sql`SELECT count(*)::int AS n FROM entities WHERE id = ANY(${ids}::int[]) AND attributes->'active' = 'false'::jsonb`) === made.length);
  });

  it('a gateway creates the device it names first, under itself, and stores its telemetry', async () => {
    const gateway = await connectDevice(listener.port, cityGateway.token);
    await gateway.publishAsync('v1/gateway/connect', JSON.stringify({ device: 'Boiler room thermometer', type: 'Environment sensor' }), { qos: 1 });
    await gateway.publishAsync('v1/gateway/telemetry', JSON.stringify({ 'Boiler room thermometer': [{ ts: 1_767_225_600_000, values: { temperature: 48.5 } }], 'Roof sensor': [{ ts: 1_767_225_600_000, values: { temperature: 3.5 } }] }), { qos: 1 });
    await gateway.publishAsync('v1/gateway/attributes', JSON.stringify({ 'Roof sensor': { battery: 'low' } }), { qos: 1 });
    const children = await t.db.systemQuery<{ id: number; name: string; parent_id: number; fk_gateway_id: number; type: string; tenant_id: string; attributes: Record<string, unknown> }>(sql`
      SELECT e.id, e.thingsboard_name AS name, e.parent_id, e.fk_gateway_id, et.name AS type, e.tenant_id, e.attributes
      FROM entities e JOIN entity_types et ON et.id = e.entity_type_id WHERE e.thingsboard_name IN ('Boiler room thermometer', 'Roof sensor') ORDER BY e.thingsboard_name`);
    expect(children).toMatchObject([
      { name: 'Boiler room thermometer', parent_id: cityGateway.id, fk_gateway_id: cityGateway.id, type: 'Environment sensor', tenant_id: cityGateway.tenantId, attributes: { active: true } },
      { name: 'Roof sensor', parent_id: cityGateway.id, fk_gateway_id: cityGateway.id, type: 'Default device', tenant_id: cityGateway.tenantId, attributes: { battery: 'low' } },
    ]);
    expect((await storedPoints(t, children[0].id, 'temperature'))[0]).toMatchObject({ ts: '2026-01-01T00:00:00.000Z', value_num: 48.5 });
    expect((await storedPoints(t, children[1].id, 'temperature'))[0]).toMatchObject({ value_num: 3.5 });
    // Named again, it is the same device.
    await gateway.publishAsync('v1/gateway/telemetry', JSON.stringify({ 'Roof sensor': [{ ts: 1_767_225_660_000, values: { temperature: 3.7 } }] }), { qos: 1 });
    expect(await storedPoints(t, children[1].id, 'temperature')).toHaveLength(2);
    await gateway.endAsync();
  });

  it('a device that is not a gateway cannot speak for others', async () => {
    const client = await connectDevice(listener.port, lamps[3].token);
    await client.publishAsync('v1/gateway/telemetry', JSON.stringify({ 'Fake child': [{ ts: 1_767_225_600_000, values: { a: 1 } }] }), { qos: 1 });
    expect(await t.db.systemQuery(sql`SELECT id FROM entities WHERE thingsboard_name = 'Fake child'`)).toEqual([]);
    expect(client.connected).toBe(true);
    await client.endAsync();
  });

  it('publishes latest telemetry and attribute changes to entity_updated subscribers', async () => {
    const lamp = lamps[4];
    const { access_token } = await t.login('admin@demo.city');
    const received: any[] = [];
    const updates: unknown[] = [];
    const ws = createClient({ url: `ws://${httpUrl}/graphql`, connectionParams: { authorization: `Bearer ${access_token}` }, lazy: false, retryAttempts: 0 });
    const stop = ws.subscribe({ query: `subscription { entity_updated(entity_ids: ["${lamp.id}"]) { id diff updated_at } }` }, {
      next: (value) => {
        const update = value.data?.entity_updated;
        updates.push(update);
        if (!isProbe(update)) received.push(update);
      },
      error: () => {}, complete: () => {},
    });
    // live once it hears a marked update, rather than after a sleep a busy machine may outlast
    await untilSubscribed(t, lamp.tenantId, lamp.id, () => updates);
    const client = await connectDevice(listener.port, lamp.token);
    const ts = Date.now();
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts, values: { dim_level: 77, power: 46.2 } }), { qos: 1 });
    await until(() => received.some((update) => update.diff.telemetry));
    expect(received.find((update) => update.diff.telemetry)).toEqual({
      id: String(lamp.id), updated_at: expect.any(String),
      diff: { telemetry: { dim_level: { ts, value: 77 }, power: { ts, value: 46.2 } } },
    });
    // the connection's own update, told when the connection was recorded (before or after the point)
    await until(() => received.some((update) => update.diff.attributes?.active === true));
    // An older point is stored but is not the latest value: nothing is published for it.
    const count = received.length;
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: ts - 60_000, values: { dim_level: 10 } }), { qos: 1 });
    await new Promise((r) => setTimeout(r, 200));
    expect(received.length).toBe(count);
    stop();
    await client.endAsync();
    await ws.dispose();
  });
});

describe('MQTT over WebSocket (/mqtt on the HTTP port)', () => {
  it('stores what a device publishes and refuses a bad token with return code 5', async () => {
    const lamp = facilityLamps[1];
    const client = await connectDevice(0, lamp.token, {}, `ws://${httpUrl}/mqtt`);
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_767_225_600_000, values: { power: 88.5 } }), { qos: 1 });
    expect((await storedPoints(t, lamp.id, 'power')).map((p) => p.value_num)).toContain(88.5);
    await client.endAsync();
    const refused = await connectDevice(0, 'no-such-token', {}, `ws://${httpUrl}/mqtt`).then(() => undefined, (e: { code?: number }) => e);
    expect(refused?.code).toBe(5);
    // A plain GET is no MQTT connection (and without a user's token not even that).
    expect((await t.app.inject({ method: 'GET', url: '/mqtt' })).statusCode).toBe(401);
  });
});

describe('bad input over MQTT', () => {
  it('each bad message is refused and counted; the connection and the good values carry on', async () => {
    const lamp = lamps[5];
    const client = await connectDevice(listener.port, lamp.token);
    const before = { ...t.app.ingestion.problems.totals() };
    const now = Date.now();
    const bad = [
      '{"power": ', // malformed
      'NaN',
      '{"power": 1e999}', // Infinity
      JSON.stringify({ ['k'.repeat(300)]: 1 }),
      JSON.stringify({ blob: 'x'.repeat(70_000) }),
      JSON.stringify({ ts: Date.UTC(1999, 11, 31), values: { power: 1 } }),
      JSON.stringify({ ts: now + 2 * 86_400_000, values: { power: 1 } }),
      JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))),
      '"just a string"',
    ];
    for (const message of bad) await client.publishAsync('v1/devices/me/telemetry', message, { qos: 1 });
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: now, values: { power: 33.3, ['k'.repeat(300)]: 2 } }), { qos: 1 });
    expect(client.connected).toBe(true);
    const stored = await storedPoints(t, lamp.id, 'power');
    expect(stored.map((p) => p.value_num)).toContain(33.3);
    expect(stored.map((p) => p.value_num)).not.toContain(1);
    expect(await t.db.systemQuery(sql`SELECT 1 FROM telemetry WHERE entity_id = ${lamp.id} AND (key = 'blob' OR key LIKE 'kkkk%' OR key = 'k9999')`)).toEqual([]);
    const after = t.app.ingestion.problems.totals();
    const grew = (reason: keyof typeof after) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect(grew('malformed_json')).toBe(2);
    expect(grew('bad_value')).toBe(2);
    expect(grew('bad_key')).toBe(2);
    expect(grew('bad_timestamp')).toBe(2);
    expect(grew('too_many_keys')).toBe(1);
    expect(grew('bad_shape')).toBe(1);
    await client.endAsync();
  });

  it('a packet announcing more than the size limit closes that connection only', async () => {
    const client = await connectDevice(listener.port, lamps[6].token);
    const other = await connectDevice(listener.port, lamps[7].token);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish('v1/devices/me/telemetry', Buffer.alloc(2 * 1024 * 1024, 'a'), { qos: 0 });
    await closed;
    await other.publishAsync('v1/devices/me/telemetry', JSON.stringify({ power: 12.5 }), { qos: 1 });
    expect((await storedPoints(t, lamps[7].id, 'power')).map((p) => p.value_num)).toContain(12.5);
    client.end(true);
    await other.endAsync();
  });
});

describe('tenants', () => {
  it("tenant B's token never writes to tenant A's device", async () => {
    const cityLamp = lamps[8];
    // B's gateway names A's device by A's gateway name: B gets a device of its own.
    const gateway = await connectDevice(listener.port, facilityGateway.token);
    const [cityMeter] = await demoDevices(t, 'Demo City', 'energy');
    await gateway.publishAsync('v1/gateway/telemetry', JSON.stringify({ [cityMeter.gatewayName!]: [{ ts: 1_767_225_600_000, values: { energy: 999 } }] }), { qos: 1 });
    expect((await storedPoints(t, cityMeter.id, 'energy')).map((p) => p.value_num)).not.toContain(999);
    const [copy] = await t.db.systemQuery<{ tenant_id: string; fk_gateway_id: number }>(sql`
      SELECT tenant_id, fk_gateway_id FROM entities WHERE thingsboard_name = ${cityMeter.gatewayName} AND id <> ${cityMeter.id}`);
    expect(copy).toEqual({ tenant_id: facilityGateway.tenantId, fk_gateway_id: facilityGateway.id });
    await gateway.endAsync();

    // B's device choosing A's device's client id does not take over A's session.
    const cityClient = await connectDevice(listener.port, cityLamp.token, { clientId: 'lamp-1' });
    const facilityClient = await connectDevice(listener.port, facilityLamps[0].token, { clientId: 'lamp-1' });
    await facilityClient.publishAsync('v1/devices/me/telemetry', JSON.stringify({ power: 777 }), { qos: 1 });
    await new Promise((r) => setTimeout(r, 200));
    expect(cityClient.connected).toBe(true);
    expect((await storedPoints(t, cityLamp.id, 'power')).map((p) => p.value_num)).not.toContain(777);
    expect((await storedPoints(t, facilityLamps[0].id, 'power')).map((p) => p.value_num)).toContain(777);
    await cityClient.endAsync();
    await facilityClient.endAsync();
  });
});

describe('HTTP device API', () => {
  const post = (token: string, kind: 'telemetry' | 'attributes', body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    t.app.inject({ method: 'POST', url: `/api/v1/${token}/${kind}`, payload: body, headers });

  it('stores telemetry and attributes and answers 200 once stored', async () => {
    const lamp = lamps[9];
    const response = await post(lamp.token, 'telemetry', JSON.stringify({ ts: 1_767_225_600_000, values: { power: 51.5 } }));
    expect(response.statusCode).toBe(200);
    expect((await storedPoints(t, lamp.id, 'power'))).toContainEqual(expect.objectContaining({ ts: '2026-01-01T00:00:00.000Z', value_num: 51.5 }));
    expect((await post(lamp.token, 'attributes', JSON.stringify({ firmware: '9.9' }))).statusCode).toBe(200);
    const [{ attributes }] = await t.db.systemQuery<{ attributes: Record<string, unknown> }>(sql`SELECT attributes FROM entities WHERE id = ${lamp.id}`);
    expect(attributes.firmware).toBe('9.9');
  });

  it('a device whose name is stored as a bare JSON string (not per language) still reports', async () => {
    const lamp = lamps[11];
    await t.db.systemQuery(sql`UPDATE entities SET name = '"Lamp by its plain name"'::jsonb WHERE id = ${lamp.id}`);
    t.app.ingestion.devices.forgetTenant(lamp.tenantId);
    expect((await post(lamp.token, 'telemetry', JSON.stringify({ ts: 1_767_225_660_000, values: { power: 12.5 } }))).statusCode).toBe(200);
    expect(await storedPoints(t, lamp.id, 'power')).toContainEqual(expect.objectContaining({ ts: '2026-01-01T00:01:00.000Z', value_num: 12.5 }));
  });

  it('401 for a bad token, 400 for bad JSON or values (nothing stored), 413 over the size limit', async () => {
    const lamp = lamps[10];
    const badToken = await post('nobody-has-this-token', 'telemetry', '{"power": 1}');
    expect(badToken.statusCode).toBe(401);
    expect(badToken.json()).toEqual({ errors: [{ code: 'DEVICE_TOKEN_INVALID', message: 'Invalid device access token' }] });
    expect((await post(lamp.token, 'telemetry', '{"power": ')).statusCode).toBe(400);
    const mixed = await post(lamp.token, 'telemetry', JSON.stringify({ ts: 1_767_225_600_000, values: { power: 61.5, ['k'.repeat(300)]: 1 } }));
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().errors[0]).toEqual({ code: 'DEVICE_BAD_KEY', message: 'a key is longer than 255 characters' });
    expect((await storedPoints(t, lamp.id, 'power')).map((p) => p.value_num)).not.toContain(61.5);
    expect((await post(lamp.token, 'telemetry', '{"power": 1e999}')).statusCode).toBe(400);
    expect((await post(lamp.token, 'attributes', '[1, 2]')).statusCode).toBe(400);
    const huge = await post(lamp.token, 'telemetry', JSON.stringify({ blob: 'x'.repeat(300 * 1024) }));
    expect(huge.statusCode).toBe(413);
    expect(JSON.stringify(huge.json())).not.toMatch(/stack|node_modules|\/work\//);
  });
});

describe('credentials', () => {
  const credentialsQuery = 'query ($id: ID!) { entity_credentials(id: $id) { id credentialsType credentialsId } }';

  it('shows the access token to those who may edit the device, and rotation revokes the old one on every instance', async () => {
    const lamp = lamps[11];
    const admin = (await t.login('admin@demo.city')).access_token;
    const shown = await graphql(admin, credentialsQuery, { id: lamp.id });
    expect(shown.data.entity_credentials).toEqual({ id: String(lamp.id), credentialsType: 'ACCESS_TOKEN', credentialsId: lamp.token });

    const operator = (await t.login('operator@demo.city')).access_token;
    expect((await graphql(operator, credentialsQuery, { id: lamp.id })).errors[0].extensions.code).toBe('FORBIDDEN');
    const otherTenant = (await t.login('admin@demo.facility')).access_token;
    expect((await graphql(otherTenant, credentialsQuery, { id: lamp.id })).errors[0].message).toBe('Entity not found');

    // connected here and to a second instance on the same database: both connections close
    const other = await startTestApp({ db: t.db });
    const otherListener = await startListener(other);
    const client = await connectDevice(listener.port, lamp.token);
    const elsewhere = await connectDevice(otherListener.port, lamp.token);
    const closed = Promise.all([client, elsewhere].map((connection) => new Promise<void>((resolve) => connection.once('close', () => resolve()))));
    const rotated = await graphql(admin, 'mutation ($id: ID!) { rotate_entity_credentials(id: $id) { credentialsId } }', { id: lamp.id });
    const newToken = rotated.data.rotate_entity_credentials.credentialsId;
    expect(newToken).toMatch(/^[0-9a-f]{32}$/);
    expect(newToken).not.toBe(lamp.token);
    await closed;
    client.end(true);
    elsewhere.end(true);
    await otherListener.close();
    await other.close();
    expect((await connectDevice(listener.port, lamp.token).then(() => undefined, (e: { code?: number }) => e))?.code).toBe(5);
    const fresh = await connectDevice(listener.port, newToken);
    await fresh.endAsync();
    expect((await post(lamp.token)).statusCode).toBe(401);
  });

  const post = (token: string) => t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: { a: 1 } });
});

describe('CSV telemetry import', () => {
  const header = 'query ($id: ID!) { entity_csv_header_definition(id: $id) { json_csv_header_definition } }';
  const importMutation = 'mutation ($id: ID!, $data: [JSON!]!, $first: Int) { import_telemetries_from_csv(id: $id, data: $data, first_row: $first) { rows valid stored refused_total refused { row column message } } }';

  it("answers the device's header definition and imports valid rows, naming the refused ones", async () => {
    const [sensor] = await demoDevices(t, 'Demo City', 'environment');
    const admin = (await t.login('admin@demo.city')).access_token;
    const definition = (await graphql(admin, header, { id: sensor.id })).data.entity_csv_header_definition.json_csv_header_definition;
    expect(definition.slice(0, 6)).toEqual([
      { name: 'ts', type: 'timestamp' }, { name: 'temperature', type: 'number' }, { name: 'humidity', type: 'number' },
      { name: 'co2', type: 'number' }, { name: 'lux', type: 'number' }, { name: 'occupancy', type: 'number' },
    ]);
    const data = [
      { ts: '2025-06-01T10:00:00Z', temperature: '21.5', humidity: '40' },
      { ts: '2025-06-01T11:00:00Z', temperature: '=1+2' },
      { ts: 'yesterday', temperature: '20' },
      { ts: '1748779200000', temperature: '22.5' },
    ];
    // a dry run (the upload's validation step) answers the same counts and stores nothing
    const dryRun = 'mutation ($id: ID!, $data: [JSON!]!) { import_telemetries_from_csv(id: $id, data: $data, dry_run: true) { rows valid stored refused_total } }';
    expect((await graphql(admin, dryRun, { id: sensor.id, data })).data.import_telemetries_from_csv).toEqual({ rows: 4, valid: 2, stored: 0, refused_total: 2 });
    expect((await storedPoints(t, sensor.id, 'temperature')).filter((p) => p.ts.startsWith('2025-06-01'))).toEqual([]);
    const result = (await graphql(admin, importMutation, { id: sensor.id, data, first: 1 })).data.import_telemetries_from_csv;
    expect(result).toEqual({ rows: 4, valid: 2, stored: 2, refused_total: 2, refused: [
      { row: 2, column: 'temperature', message: 'temperature must be a number' },
      { row: 3, column: 'ts', message: expect.stringContaining('ts must be a date and time') },
    ] });
    const points = await storedPoints(t, sensor.id, 'temperature');
    expect(points).toContainEqual(expect.objectContaining({ ts: '2025-06-01T10:00:00.000Z', value_num: 21.5 }));
    expect(points).toContainEqual(expect.objectContaining({ ts: '2025-06-01T12:00:00.000Z', value_num: 22.5 }));
  });

  it('refuses unknown columns, too many rows, other tenants and those who may not edit', async () => {
    const [sensor] = await demoDevices(t, 'Demo City', 'environment');
    const admin = (await t.login('admin@demo.city')).access_token;
    const unknown = await graphql(admin, importMutation, { id: sensor.id, data: [{ ts: '2025-06-01T10:00:00Z', pressure: '1' }] });
    expect(unknown.errors[0].message).toBe("The column pressure is not in the device's CSV header definition");
    const tooMany = await graphql(admin, importMutation, { id: sensor.id, data: Array.from({ length: 5001 }, () => ({ ts: '1' })) });
    expect(tooMany.errors[0].extensions.code).toBe('VALIDATION');
    const otherTenant = (await t.login('admin@demo.facility')).access_token;
    expect((await graphql(otherTenant, importMutation, { id: sensor.id, data: [{ ts: '2025-06-01T10:00:00Z', temperature: '5' }] })).errors[0].message).toBe('Entity not found');
    const operator = (await t.login('operator@demo.city')).access_token;
    expect((await graphql(operator, importMutation, { id: sensor.id, data: [{ ts: '2025-06-01T10:00:00Z', temperature: '5' }] })).errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await storedPoints(t, sensor.id, 'temperature')).map((p) => p.value_num)).not.toContain(5);
  });
});
