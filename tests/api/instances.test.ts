// Two instances on one PostgreSQL database, as behind a load balancer: what happens on one reaches
// the live subscribers of the other, and an instance whose listening connection was cut off reads
// what it missed and drops what its caches may no longer hold. PostgreSQL only: the embedded
// database belongs to one process.
import { sql } from 'drizzle-orm';
import { createClient, type Client } from 'graphql-ws';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import type { MqttListener } from '../../server/ingest/mqttListener.ts';
import { connectDevice, startDeviceApp, startListener, until, type DemoDevice } from '../support/devices.ts';
import { startTestApp, usingPostgres, type TestApp } from './harness.ts';

let a: TestApp;
let aListener: MqttListener;
let lamps: DemoDevice[];
let b: TestApp;
let bDb: Database;
let bListener: MqttListener;
let bSocketUrl: string;
const clients: (Client | MqttClient)[] = [];

beforeAll(async () => {
  if (!usingPostgres()) return;
  ({ t: a, listener: aListener, lamps } = await startDeviceApp());
  bDb = await openDatabase({ databaseUrl: a.databaseUrl, dataDir: 'memory://' });
  b = await startTestApp({ db: bDb });
  await b.app.listen({ port: 0, host: '127.0.0.1' });
  bSocketUrl = `ws://127.0.0.1:${(b.app.server.address() as { port: number }).port}/graphql`;
  bListener = await startListener(b);
}, 60_000);
afterAll(async () => {
  for (const client of clients) {
    if ('dispose' in client) await client.dispose();
    else client.end(true);
  }
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

describe.runIf(usingPostgres())('two instances on one database', () => {
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
    const sentAt = Date.now();
    await device.publishAsync('v1/devices/me/telemetry', JSON.stringify({ power: 77.5 }), { qos: 1 });
    await until(() => updates.received.some((data) => data.entity_updated?.diff?.telemetry?.power?.value === 77.5), 5_000);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
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
});
