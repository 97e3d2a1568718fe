// Two instances on one PostgreSQL database, as behind a load balancer: what happens on one reaches
// the live subscribers of the other; an instance whose listening connection was cut off reads
// what it missed and drops what its caches may no longer hold; a device's second connection on
// the other instance takes over; a killed instance's devices read as disconnected. PostgreSQL
// only: the embedded database belongs to one process.
import { sql } from 'drizzle-orm';
import { createClient, type Client } from 'graphql-ws';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../../scripts/serverProcess.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import type { MqttListener } from '../../server/ingest/mqttListener.ts';
import { connectDevice, startDeviceApp, startListener, until, type DemoDevice } from '../support/devices.ts';
import { JWT_SECRET, startTestApp, skipUnlessPostgres, usingPostgres, type TestApp } from './harness.ts';

let a: TestApp;
let aListener: MqttListener;
let lamps: DemoDevice[];
let b: TestApp;
let bDb: Database;
let bListener: MqttListener;
let bSocketUrl: string;
const clients: (Client | MqttClient)[] = [];
let killed: ServerProcess | undefined;
/** Instance B's clock of KPI answers (moved past their freshness). */
let bNow = Date.now();
/** Seen every half second; a silent instance is dead after 8 s (a server process is seen every 5 s). */
const instanceHeartbeat = { everyMs: 500, deadAfterMs: 8_000 };

beforeAll(async () => {
  if (!usingPostgres()) return;
  ({ t: a, listener: aListener, lamps } = await startDeviceApp({ instanceHeartbeat }));
  bDb = await openDatabase({ databaseUrl: a.databaseUrl, dataDir: 'memory://' });
  b = await startTestApp({ db: bDb, instanceHeartbeat, kpiAnswersNow: () => bNow });
  await b.app.listen({ port: 0, host: '127.0.0.1' });
  bSocketUrl = `ws://127.0.0.1:${(b.app.server.address() as { port: number }).port}/graphql`;
  bListener = await startListener(b);
}, 60_000);
afterAll(async () => {
  for (const client of clients) {
    if ('dispose' in client) await client.dispose();
    else client.end(true);
  }
  await killed?.stop();
  await bListener?.close();
  await b?.close();
  await bDb?.close();
  await aListener?.close();
  await a?.close();
});

/** Subscribes on instance B; answers what arrives, and the socket's close codes. */
function subscribeOnB(token: string, query: string) {
  const received: any[] = [];
  const closes: number[] = [];
  let connected = 0;
  const client = createClient({
    url: bSocketUrl, connectionParams: { authorization: `Bearer ${token}` }, lazy: false, retryAttempts: 5, retryWait: async () => {},
    on: { connected: () => { connected++; }, closed: (event) => { closes.push((event as { code: number }).code); } },
  });
  clients.push(client);
  client.subscribe({ query }, { next: (value) => received.push(value.data ?? value.errors), error: (error) => received.push(error), complete: () => {} });
  return { received, closes, connections: () => connected };
}

/** Cuts every instance's listening connection, as a network failure or a database failover would. */
async function cutListeners(db: Database) {
  const cut = await db.systemQuery<{ pid: number }>(sql`
    SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`);
  expect(cut.length).toBeGreaterThanOrEqual(2);
}

/** Until both instances listen again. */
const listening = async (db: Database) => until(async () => (await db.systemQuery(sql`
  SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`)).length >= 2, 10_000);

const watcherInput = (name: string) => ({ name, query: { key: 'temperature', aggregation: 'avg' }, condition: { operator: '>', kind: 'number', value: 30 }, interval: 120 });

describe('two instances on one database', () => {
  beforeEach(skipUnlessPostgres('two instances on one database'));
  it('tell a subscriber on one instance what a device reported and a user changed on the other; another tenant hears nothing', { timeout: 30_000 }, async () => {
    const admin = (await a.login('admin@demo.city')).access_token;
    const facility = (await b.login('admin@demo.facility')).access_token;
    const lamp = lamps[0];
    const updates = subscribeOnB(admin, `subscription { entity_updated(entity_ids: ["${lamp.id}"]) { id diff } }`);
    const changes = subscribeOnB(admin, 'subscription { resource_changed(resource: "watcher") { action record } }');
    const otherTenant = subscribeOnB(facility, 'subscription { resource_changed(resource: "watcher") { action record } }');
    await until(() => updates.connections() + changes.connections() + otherTenant.connections() === 3);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the subscriptions are set up

    const device = await connectDevice(aListener.port, lamp.token);
    clients.push(device);
    await device.publishAsync('v1/devices/me/telemetry', JSON.stringify({ power: 77.5 }), { qos: 1 });
    await until(() => updates.received.some((data) => data.entity_updated?.diff?.telemetry?.power?.value === 77.5));
    expect(updates.received.every((data) => data.entity_updated.id === String(lamp.id))).toBe(true);

    const created = await a.post('/create-watcher', { input: watcherInput('Seen on B') }, admin);
    expect(created.status).toBe(200);
    await until(() => changes.received.length > 0, 5_000);
    expect(changes.received).toEqual([{ resource_changed: { action: 'created', record: expect.objectContaining({ name: 'Seen on B' }) } }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(otherTenant.received).toEqual([]);
  });

  it('an instance whose listening connection was cut off tells its subscribers what happened meanwhile, and forgets a session revoked meanwhile', { timeout: 40_000 }, async () => {
    const admin = (await a.login('admin@demo.city')).access_token;
    const signedIn = await b.login('admin@demo.city'); // a session B has just seen live (cached)
    expect((await b.get('/tenant', signedIn.access_token)).status).toBe(200);
    const changes = subscribeOnB(admin, 'subscription { resource_changed(resource: "watcher") { action record } }');
    await until(() => changes.connections() === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));

    await cutListeners(a.db);
    const created = await a.post('/create-watcher', { input: watcherInput('Made while B was deaf') }, admin);
    expect(created.status).toBe(200);
    const revoked = await a.send({ method: 'POST', path: '/auth/logout', token: signedIn.access_token, body: { refresh_token: signedIn.refresh_token } });
    expect(revoked.status).toBeLessThan(300);

    await listening(a.db);
    await until(() => changes.received.length > 0, 10_000);
    expect(changes.received).toEqual([{ resource_changed: { action: 'created', record: expect.objectContaining({ name: 'Made while B was deaf' }) } }]);
    expect(changes.closes).toEqual([]); // caught up without a reconnection
    // B's cache held the session as live for 5 s; the missed revocation must not be honoured meanwhile
    await until(async () => (await b.get('/tenant', signedIn.access_token)).status === 401, 2_000);
    expect((await b.get('/tenant', signedIn.access_token)).status).toBe(401);
  });
  it('a session signed out on one instance has its subscribed sockets on the other closed (4403)', { timeout: 20_000 }, async () => {
    const session = await a.login('admin@demo.city');
    const updates = subscribeOnB(session.access_token, `subscription { entity_updated(entity_ids: ["${lamps[0].id}"]) { id } }`);
    await until(() => updates.connections() === 1);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the subscription is set up
    const signedOut = await a.send({ method: 'POST', path: '/auth/logout', token: session.access_token, body: { refresh_token: session.refresh_token } });
    expect(signedOut.status).toBeLessThan(300);
    await until(() => updates.closes.includes(4403), 5_000);
  });
});

/** The device's `active` attribute and its connectivity log rows (oldest first). */
async function connectivity(db: Database, entityId: number) {
  const [{ active }] = await db.systemQuery<{ active: unknown }>(sql`SELECT attributes->'active' AS active FROM entities WHERE id = ${entityId}`);
  const logs = await db.systemQuery<{ message: string }>(sql`
    SELECT message FROM logs WHERE entity_id = ${entityId} AND source = 'device' AND message_data->>'event' IN ('connected', 'disconnected') ORDER BY id`);
  return { active, logs: logs.map((log) => log.message) };
}

const closedWithin = (client: MqttClient, ms: number) => new Promise<boolean>((resolve) => {
  const timer = setTimeout(() => resolve(false), ms);
  client.once('close', () => {
    clearTimeout(timer);
    resolve(true);
  });
});

describe('KPI answers on two instances', () => {
  beforeEach(skipUnlessPostgres('two instances on one database'));
  it('a point stored late on one instance reaches the answers the other keeps, at their next refresh', { timeout: 30_000 }, async () => {
    const admin = (await a.login('admin@demo.city')).access_token;
    const city = (await a.get('/tenant', admin)).body.id as string;
    const lamp = lamps[0];
    const day = Date.UTC(2026, 2, 2);
    await a.app.ingestion.writer.write(Array.from({ length: 24 }, (_v, h) => ({ tenantId: city, entityId: lamp.id, key: 'late_load', ts: day + h * 3_600_000 + 60_000, value: h })));
    const kpi = await a.send({ method: 'POST', path: '/graphql', token: admin, body: {
      query: 'mutation($query: JSON, $definition: JSON) { create_kpi(name: {en: "Late"}, query: $query, definition: $definition) { id } }',
      variables: {
        query: [{ key: 'late_load', aggregation: 'sum', entity_ids: [lamp.id] }],
        definition: { time_interval: '1h', date_range: { from: new Date(day).toISOString(), to: new Date(day + 86_400_000).toISOString() }, refresh_interval: 5 },
      },
    } });
    const url = `/kpi-data?id=${kpi.body.data.create_kpi.id}`;
    const valueAt = async (hour: number) => (await b.get(url, admin)).body.series[0].data[hour].value as number;
    expect(await valueAt(5)).toBe(5); // B keeps the day's buckets: all closed long ago

    await a.app.ingestion.writer.write([{ tenantId: city, entityId: lamp.id, key: 'late_load', ts: day + 5 * 3_600_000 + 120_000, value: 1_000 }]);
    // B computes again past each answer's freshness, well within the time it keeps buckets unasked
    for (let poll = 0; poll < 50 && await valueAt(5) !== 1_005; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      bNow += 5_000;
    }
    expect(await valueAt(5)).toBe(1_005);
  });
});

describe('devices on two instances', () => {
  beforeEach(skipUnlessPostgres('two instances on one database'));
  it('a device gets the command and shared attributes whose announcement its instance missed, once it listens again', { timeout: 30_000 }, async () => {
    const lamp = lamps[3];
    const device = await connectDevice(bListener.port, lamp.token, { clientId: 'lamp-four' });
    clients.push(device);
    const received: { topic: string; body: any }[] = [];
    device.on('message', (topic, payload) => received.push({ topic, body: JSON.parse(payload.toString()) }));
    await device.subscribeAsync(['v1/devices/me/rpc/request/+', 'v1/devices/me/attributes'], { qos: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300)); // its pending commands (none) were looked for

    // Written without an announcement, as if it had been made while B was not listening (a method and
    // a key of their own: the lighting engine's setDim and dim_level do not replace them).
    await a.db.systemQuery(sql`INSERT INTO device_commands (tenant_id, entity_id, method, params, source, expires_at)
      VALUES (${lamp.tenantId}, ${lamp.id}, 'identify', '{"blinks": 3}'::jsonb, 'user', now() + interval '10 minutes')`);
    await a.db.systemQuery(sql`UPDATE entities SET shared_attributes = (coalesce(shared_attributes::jsonb, '{}'::jsonb) || '{"firmware_target": "2.5.0"}'::jsonb)::json
      WHERE id = ${lamp.id}`);
    const missed = () => received.filter(({ body }) => body.method === 'identify' || body.firmware_target === '2.5.0');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(missed()).toEqual([]);

    await cutListeners(a.db);
    await listening(a.db);
    await until(() => missed().length >= 2, 10_000);
    expect(missed()).toEqual(expect.arrayContaining([
      { topic: expect.stringMatching(/^v1\/devices\/me\/rpc\/request\/\d+$/), body: { method: 'identify', params: { blinks: 3 } } },
      { topic: 'v1/devices/me/attributes', body: expect.objectContaining({ firmware_target: '2.5.0' }) },
    ]));
  });

  it('a second connection with the same token and client id on the other instance closes the first; the device stays connected', { timeout: 30_000 }, async () => {
    const lamp = lamps[1];
    await a.db.systemQuery(sql`DELETE FROM logs WHERE entity_id = ${lamp.id}`);
    const first = await connectDevice(aListener.port, lamp.token, { clientId: 'lamp-two', protocolVersion: 5 });
    clients.push(first);
    await until(async () => (await connectivity(a.db, lamp.id)).active === true);
    const firstClosed = closedWithin(first, 2_000);
    const second = await connectDevice(bListener.port, lamp.token, { clientId: 'lamp-two', protocolVersion: 5 });
    clients.push(second);
    expect(await firstClosed).toBe(true);
    expect(second.connected).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the first one's end is counted
    expect(await connectivity(a.db, lamp.id)).toEqual({ active: true, logs: ['Device connected'] });

    second.end(true);
    await until(async () => (await connectivity(a.db, lamp.id)).active === false);
    expect((await connectivity(a.db, lamp.id)).logs).toEqual(['Device connected', 'Device disconnected']);
  });

  // 20 s on a quiet machine; beside two CPU hogs and the cluster scenario it ran past 90 s (it
  // starts a third instance as a process): the limit only bounds a failure
  it('an instance killed with SIGKILL: the others mark its devices disconnected, and subscribers anywhere hear it', { timeout: 240_000 }, async () => {
    const lamp = lamps[2];
    const mqttPort = await freePort();
    killed = await startServerProcess({
      ...process.env, DATABASE_URL: a.databaseUrl, DATA_DIR: 'memory://', JWT_SECRET, MQTT_PORT: String(mqttPort), SEED: 'none', SIMULATE: 'off',
    });
    const admin = (await b.login('admin@demo.city')).access_token;
    const updates = subscribeOnB(admin, `subscription { entity_updated(entity_ids: ["${lamp.id}"]) { id diff } }`);
    await until(() => updates.connections() === 1);
    const device = await connectDevice(mqttPort, lamp.token, { clientId: 'lamp-three' });
    clients.push(device);
    await until(async () => (await connectivity(a.db, lamp.id)).active === true, 10_000);

    killed.signal('SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    await until(async () => (await connectivity(a.db, lamp.id)).active === false, 30_000);
    expect((await connectivity(a.db, lamp.id)).logs.at(-1)).toBe('Device disconnected');
    await until(() => updates.received.some((data) => data.entity_updated?.diff?.attributes?.active === false), 5_000);
    const [{ instances }] = await a.db.systemQuery<{ instances: number }>(sql`SELECT count(*)::int AS instances FROM server_instances`);
    expect(instances).toBe(2); // A and B; the dead one is gone
  });
});
