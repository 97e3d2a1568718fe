// The watcher engine as devices and API clients see it: a value a device sends turns its watcher's
// alert on (one log row per transition, in words), `for` waits and then fires without a new value,
// a device that stops reporting goes "no data", a restart resumes a pending watch, two instances
// log a transition once, a device's alarm reaches the map as soon as the watcher list is told, and
// another tenant sees none of it.
import { sql } from 'drizzle-orm';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { WATCHES_PER_TRANSACTION } from '../../server/engines/watchers/watcherEngine.ts';
import { DEVICE_FLAGS, MAX_CLUSTER_ZOOM } from '../../src/schemas/mapClusters.ts';
import { startDeviceApp, type DemoDevice } from '../support/devices.ts';
import { makeEntities } from '../support/testEntities.ts';
import { startSmtpInbox, type SmtpInbox } from '../support/smtpInbox.ts';
import { until } from '../support/until.ts';
import { startTestApp, usingPostgres, type TestApp } from './harness.ts';

const ENGINE_EVERY_MS = 200;
let t: TestApp;
let lamps: DemoDevice[];
let admin: string;
let facilityAdmin: string;
let inbox: SmtpInbox;
/** What the server logged as errors (the engines' failures among them). */
const serverErrors: string[] = [];

beforeAll(async () => {
  inbox = await startSmtpInbox();
  ({ t, lamps } = await startDeviceApp({
    engines: true, enginesEveryMs: ENGINE_EVERY_MS, smtp: { url: inbox.url, from: 'alerts@terrasight.test' },
    logger: { level: 'error', stream: { write: (line: string) => void serverErrors.push(line) } },
  }));
  admin = (await t.login('admin@demo.city')).access_token;
  facilityAdmin = (await t.login('admin@demo.facility')).access_token;
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

const sendTelemetry = (app: TestApp, token: string, body: unknown) => app.app.inject({
  method: 'POST', url: `/api/v1/${token}/telemetry`, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' },
});

async function createWatcher(input: Record<string, unknown>, token = admin, app = t): Promise<number> {
  const created = await app.post('/create-watcher', { input: { interval: 3_600, ...input } }, token);
  expect(created.status).toBe(200);
  return created.body.id;
}

const watcherOf = async (id: number, app = t, token = admin) => (await app.get('/watcher-list', token)).body.find((watcher: { id: number }) => watcher.id === id);

interface LogRow { type: string; message: string; entity_id: number; data: Record<string, unknown> }
const logsOf = (watcherId: number, app = t) => app.db.systemQuery<LogRow>(sql`SELECT type, message, entity_id, message_data AS data
  FROM logs WHERE source = 'watcher' AND message_data->>'source_id' = ${String(watcherId)} ORDER BY id`);

/**
 * Locks a table away from every other session (PostgreSQL) in a transaction of its own, until the
 * returned function ends it: what reads the table meanwhile waits.
 */
async function lockedAway(table: 'entities' | 'watcher_states'): Promise<() => Promise<void>> {
  let release!: () => void;
  let taken!: () => void;
  const lockTaken = new Promise<void>((resolve) => (taken = resolve));
  const held = t.db.systemTx(async (tx) => {
    await tx.execute(sql`LOCK TABLE ${sql.identifier(table)} IN ACCESS EXCLUSIVE MODE`);
    taken();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await lockTaken;
  return async () => {
    release();
    await held;
  };
}

/** How long a test waits for the engines (ms). */
const WAIT_MS = 8_000;

describe('event-driven', () => {
  it('a value over the threshold alerts, once; back under it recovers; each transition one log row in words', async () => {
    const lamp = lamps[0];
    await sendTelemetry(t, lamp.token, { power: 12 }); // a fresh value under the threshold: the watch starts normal
    const id = await createWatcher({
      name: 'Lamp power high', query: { key: 'power', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 50 },
      entity_ids: [lamp.id], definition: { severity: 'error' },
    });
    expect((await sendTelemetry(t, lamp.token, { power: 82 })).statusCode).toBe(200);
    const alerted = await until(() => watcherOf(id), (watcher) => watcher.alert === true, WAIT_MS);
    expect(alerted).toMatchObject({ alert: true, result: { alerting: 1, value: 82 } });
    expect(Date.parse(alerted.triggered_at)).toBeGreaterThan(Date.now() - 10_000);

    await sendTelemetry(t, lamp.token, { power: 90 }); // still over: no second alert
    await sendTelemetry(t, lamp.token, { power: 10 });
    await until(() => watcherOf(id), (watcher) => watcher.alert === false, WAIT_MS);
    const logs = await logsOf(id);
    expect(logs.map((log) => [log.type, log.message])).toEqual([
      ['error', `${lamp.name}: power 82 > 50 (Lamp power high)`],
      ['informational', `${lamp.name}: power 10 back to normal (Lamp power high)`],
    ]);
    expect(logs[0]).toMatchObject({ entity_id: lamp.id, data: { transition: 'alert', key: 'power', value: 82, threshold: 50, operator: '>' } });
    // the demo administrator's rule takes error logs by e-mail: the alert arrives, once; the recovery (informational) does not
    const mails = await until(async () => inbox.received.filter((mail) => mail.text.includes('Lamp power high')), (found) => found.length > 0, WAIT_MS);
    expect(mails.map((mail) => [mail.to, mail.text.includes(`${lamp.name}: power 82 > 50 (Lamp power high)`)])).toEqual([['admin@demo.city', true]]);
  });

  it('with `for`: pending until the time is up, then alerts without a new value', async () => {
    const lamp = lamps[1];
    const id = await createWatcher({
      name: 'Lamp power high for 2 s', query: { key: 'power', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 50 },
      entity_ids: [lamp.id], for_seconds: 2,
    });
    await sendTelemetry(t, lamp.token, { power: 70 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await watcherOf(id)).alert).toBe(false);
    const alerted = await until(() => watcherOf(id), (watcher) => watcher.alert === true, WAIT_MS);
    expect(alerted.alert).toBe(true);
    expect((await logsOf(id)).map((log) => log.data.transition)).toEqual(['alert']);
  });

  it('an aggregation over the interval: the average of the values the device sent in it', async () => {
    const lamp = lamps[2];
    const id = await createWatcher({
      name: 'Average power', query: { key: 'power', aggregation: 'avg' }, condition: { operator: 'between', kind: 'number', value: 40, value_to: 60 },
      entity_ids: [lamp.id], interval: 600,
    });
    const now = Date.now();
    await sendTelemetry(t, lamp.token, [{ ts: now - 2_000, values: { power: 30 } }, { ts: now - 1_000, values: { power: 70 } }]);
    const alerted = await until(() => watcherOf(id), (watcher) => watcher.alert === true, WAIT_MS);
    expect(alerted.result.value).toBe(50);
  });
});

describe('periodic', () => {
  it('a device that stopped reporting goes "no data", and "data again" when it reports', async () => {
    const lamp = lamps[3];
    await sendTelemetry(t, lamp.token, { ts: Date.now() - 120_000, values: { dim_level: 40 } });
    const id = await createWatcher({
      name: 'Dimming reported', query: { key: 'dim_level', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 100 },
      entity_ids: [lamp.id], interval: 10,
    });
    // watched for a whole interval (10 s) without a value: no data
    const started = Date.now();
    const silent = await until(() => watcherOf(id), (watcher) => watcher.alert === true, 25_000);
    expect(silent.alert).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    await sendTelemetry(t, lamp.token, { dim_level: 50 });
    await until(() => watcherOf(id), (watcher) => watcher.alert === false, WAIT_MS);
    expect((await logsOf(id)).map((log) => [log.data.transition, log.message])).toEqual([
      ['no_data', `${lamp.name}: no dim_level data for 10 s (Dimming reported)`],
      ['data_back', `${lamp.name}: dim_level data again (Dimming reported)`],
    ]);
  });

  it('a watcher of more entities than one transaction holds is evaluated on all of them, its summary counting them all', async () => {
    const count = WATCHES_PER_TRANSACTION + 150;
    const { typeId } = await makeEntities(t, lamps[4].tenantId, 'Bulk lamp', count, { attributes: { bulk_level: 80 } });
    onTestFinished(async () => { await t.db.systemQuery(sql`DELETE FROM entities WHERE entity_type_id = ${typeId}`); });
    const id = await createWatcher({
      name: 'Bulk level', query: { key: 'bulk_level', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 50 },
      entity_type_ids: [typeId], definition: { severity: 'notice' },
    });
    const alerted = await until(() => watcherOf(id), (watcher) => watcher.result?.watched === count, 75_000); // ~9 s alone; a bound for a failure, not a speed
    expect(alerted).toMatchObject({ alert: true, result: { alerting: count, watched: count } });
    expect((await logsOf(id)).length).toBe(count);
    expect((await t.post('/delete-watcher', { id }, admin)).status).toBe(200);
  });

  it('a periodic evaluation whose connection is lost is tried again a few passes later, not an interval later', async ({ skip }) => {
    skip(!usingPostgres(), 'needs PostgreSQL: a lock held by another session');
    const { typeId } = await makeEntities(t, lamps[4].tenantId, 'Retried lamp', 1, { attributes: { retried_level: 80 } });
    onTestFinished(async () => { await t.db.systemQuery(sql`DELETE FROM entities WHERE entity_type_id = ${typeId}`); });
    // the watches' states locked away, so that the pass's read waits (the only one blocked) and is cut off
    const release = await lockedAway('watcher_states');
    const id = await createWatcher({
      name: 'Retried level', query: { key: 'retried_level', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 50 },
      entity_type_ids: [typeId],
    });
    try {
      const cut = await until(() => t.db.systemQuery<{ pid: number }>(sql`SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity
        WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`), (pids) => pids.length > 0, WAIT_MS);
      expect(cut.length).toBeGreaterThan(0);
    } finally {
      await release();
    }
    // its claim moved it an hour on (interval 3,600 s); it is evaluated within seconds all the same
    const evaluated = await until(() => watcherOf(id), (watcher) => watcher.result?.watched === 1, WAIT_MS);
    expect(evaluated).toMatchObject({ alert: true, result: { alerting: 1, watched: 1 } });
    expect((await t.post('/delete-watcher', { id }, admin)).status).toBe(200);
  });

  it('a watcher deleted while its pass waits is left out without an error, and the pass evaluates the others', async ({ skip }) => {
    skip(!usingPostgres(), 'needs PostgreSQL: a lock held by another session');
    const { typeId } = await makeEntities(t, lamps[4].tenantId, 'Watched lamp', 1, { attributes: { watched_level: 80 } });
    onTestFinished(async () => { await t.db.systemQuery(sql`DELETE FROM entities WHERE entity_type_id = ${typeId}`); });
    const input = (name: string) => ({
      name, query: { key: 'watched_level', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 50 },
      entity_type_ids: [typeId], status: 'inactive',
    });
    const gone = await createWatcher(input('Deleted meanwhile'));
    const kept = await createWatcher(input('Kept'));
    const errorsBefore = serverErrors.length;
    // the entities locked away: the pass that claims both waits to read the entities they watch
    const release = await lockedAway('entities');
    try {
      await t.db.systemQuery(sql`UPDATE watchers SET status = 'active', next_evaluation_at = now() WHERE id IN (${gone}, ${kept})`);
      const [claimed] = await until(() => t.db.systemQuery<{ both: boolean }>(sql`SELECT count(*) = 2 AS both FROM watchers
        WHERE id IN (${gone}, ${kept}) AND next_evaluation_at > now() + interval '10 minutes'`), ([row]) => row.both, WAIT_MS);
      expect(claimed.both).toBe(true);
      await t.db.systemQuery(sql`DELETE FROM watchers WHERE id = ${gone}`);
    } finally {
      await release();
    }
    const evaluated = await until(() => watcherOf(kept), (watcher) => watcher.result?.watched === 1, WAIT_MS);
    expect(evaluated).toMatchObject({ alert: true, result: { alerting: 1, watched: 1 } });
    expect(serverErrors.slice(errorsBefore).filter((line) => line.includes('watcher evaluation failed'))).toEqual([]);
    expect((await t.post('/delete-watcher', { id: kept }, admin)).status).toBe(200);
  });
});

describe('restarts and instances', () => {
  it('a restart resumes a pending watch; two instances on one database log each transition once', async () => {
    const first = await startTestApp({ engines: true, enginesEveryMs: ENGINE_EVERY_MS });
    const token = (await first.login('admin@demo.city')).access_token;
    const [lamp] = await first.db.systemQuery<{ id: number; token: string }>(sql`SELECT e.id, e.access_token AS token FROM entities e
      JOIN entity_types et ON et.id = e.entity_type_id JOIN tenants tn ON tn.id = e.tenant_id
      WHERE tn.name = 'Demo City' AND et.category = 'lighting' ORDER BY e.id LIMIT 1`);
    const id = await createWatcher({
      name: 'Survives a restart', query: { key: 'power', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 50 },
      entity_ids: [lamp.id], for_seconds: 3,
    }, token, first);
    await sendTelemetry(first, lamp.token, { power: 99 });
    await until(() => first.db.systemQuery<{ state: string }>(sql`SELECT state FROM watcher_states WHERE watcher_id = ${id}`), (states) => states[0]?.state === 'pending', WAIT_MS);
    await first.app.close(); // the instance stops while the watch is pending

    // two instances start on its database; neither has seen the value
    const second = await startTestApp({ db: first.db, engines: true, enginesEveryMs: ENGINE_EVERY_MS });
    const third = await startTestApp({ db: first.db, engines: true, enginesEveryMs: ENGINE_EVERY_MS });
    try {
      const secondToken = (await second.login('admin@demo.city')).access_token;
      const alerted = await until(() => watcherOf(id, second, secondToken), (watcher) => watcher?.alert === true, WAIT_MS);
      expect(alerted.alert).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // both engines have had their passes
      expect((await logsOf(id, second)).map((log) => log.data.transition)).toEqual(['alert']);
    } finally {
      await third.app.close();
      await second.app.close();
      await first.close();
    }
  });
});

describe('in-app notifications', () => {
  interface LogChange { action: string; id: string; notify: boolean; record: { message: string; type: string; message_data: { transition: string } } | null }

  /** A user's live subscription to log changes, as the open web app keeps it; resolves once connected. */
  const listen = async (url: string, token: string) => {
    const received: LogChange[] = [];
    const client = createClient({ url, connectionParams: { authorization: `Bearer ${token}` }, lazy: false, retryAttempts: 0 });
    const connected = new Promise<void>((resolve) => client.on('connected', () => resolve()));
    client.subscribe({ query: 'subscription { resource_changed(resource: "log") { action id notify record } }' }, {
      next: (value) => received.push((value.data?.resource_changed ?? value.errors) as LogChange), error: (error) => received.push(error as LogChange), complete: () => {},
    });
    onTestFinished(() => client.dispose());
    await connected;
    return received;
  };

  it("a transition is published live to the tenant's log readers, as a notification to those whose in-app rule asks for it; never to another tenant", async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
    const lamp = lamps[3];
    await sendTelemetry(t, lamp.token, { power: 1 });
    const id = await createWatcher({
      name: 'In-app power', query: { key: 'power', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 50 },
      entity_ids: [lamp.id], definition: { severity: 'error' },
    });
    // the administrator's own rule: this watcher's errors, in the app (the operator has none)
    const rule = await t.post('/graphql', {
      query: `mutation { create_notification(channels: ["in_app"], log_filter: {type: ["error"], sources: [{model_name: "watcher", model_id: ${id}}]}) { id } }`,
    }, admin);
    expect(rule.body.errors).toBeUndefined();
    const operator = (await t.login('operator@demo.city')).access_token;
    const [toAdmin, toOperator, toFacility] = await Promise.all([listen(url, admin), listen(url, operator), listen(url, facilityAdmin)]);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the subscriptions reach the server after the sockets open

    await sendTelemetry(t, lamp.token, { power: 77 });
    const alert = (changes: LogChange[]) => changes.find((change) => change.record?.message === `${lamp.name}: power 77 > 50 (In-app power)`);
    await until(async () => [alert(toAdmin), alert(toOperator)], (found) => found.every(Boolean), WAIT_MS);
    expect(alert(toAdmin)).toMatchObject({ action: 'created', notify: true, record: { type: 'error', message_data: { transition: 'alert' } } });
    expect(alert(toOperator)).toMatchObject({ action: 'created', notify: false });
    // the recovery is informational: the rule does not ask for it
    await sendTelemetry(t, lamp.token, { power: 2 });
    const recovery = await until(async () => toAdmin.find((change) => change.record?.message_data.transition === 'recover' && change.record.message.includes('In-app power')), Boolean, WAIT_MS);
    expect(recovery).toMatchObject({ action: 'created', notify: false, record: { type: 'informational' } });
    expect(JSON.stringify(toFacility)).not.toContain('In-app power');
  });
});

describe('the map', () => {
  it("a device's alarm ending while another's goes on is told to the watcher list, and a map asked for then shows it", async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
    const [first, second] = [lamps[5], lamps[6]];
    await Promise.all([sendTelemetry(t, first.token, { power: 1 }), sendTelemetry(t, second.token, { power: 1 })]);
    const id = await createWatcher({
      name: 'Map power', query: { key: 'power', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 50 },
      entity_ids: [first.id, second.id], definition: { severity: 'warning' },
    });
    await sendTelemetry(t, first.token, { power: 80 });
    await until(() => watcherOf(id), (watcher) => watcher.result?.alerting === 1, WAIT_MS);
    await sendTelemetry(t, second.token, { power: 90 });
    await until(() => watcherOf(id), (watcher) => watcher.result?.alerting === 2, WAIT_MS);
    const [lng, lat] = (await t.get(`/entity/${first.id}`, admin)).body.geom.coordinates;
    const inAlarmOnMap = async () => {
      const { body } = await t.get(`/map-clusters?zoom=${MAX_CLUSTER_ZOOM + 2}&west=${lng - 0.0005}&south=${lat - 0.0005}&east=${lng + 0.0005}&north=${lat + 0.0005}`, admin);
      return (body.points.find((point: number[]) => point[0] === first.id)[5] & DEVICE_FLAGS.alarm) !== 0;
    };
    expect(await until(inAlarmOnMap, Boolean, WAIT_MS)).toBe(true);

    const changes: { id: string }[] = [];
    const client = createClient({ url, connectionParams: { authorization: `Bearer ${admin}` }, lazy: false, retryAttempts: 0 });
    onTestFinished(() => client.dispose());
    const connected = new Promise<void>((resolve) => client.on('connected', () => resolve()));
    client.subscribe({ query: 'subscription { resource_changed(resource: "watcher") { id } }' }, {
      next: (value) => { if (value.data) changes.push(value.data.resource_changed as { id: string }); }, error: () => {}, complete: () => {},
    });
    await connected;
    await new Promise((resolve) => setTimeout(resolve, 300)); // the subscription reaches the server after the socket opens
    // the first recovers; the second, which alerted later, goes on: the watcher's alert and its time stay, its count falls
    await sendTelemetry(t, first.token, { power: 2 });
    expect(await until(async () => changes.some((change) => Number(change.id) === id), Boolean, WAIT_MS)).toBe(true);
    expect(await inAlarmOnMap()).toBe(false);
    expect(await watcherOf(id)).toMatchObject({ alert: true, result: { alerting: 1 } });
    expect((await t.post('/delete-watcher', { id }, admin)).status).toBe(200);
  });
});

describe('tenants', () => {
  it("another tenant sees none of a tenant's watchers, states or alert logs", async () => {
    const watchers = (await t.get('/watcher-list', facilityAdmin)).body as { name: string }[];
    expect(watchers.map((watcher) => watcher.name)).not.toContain('Lamp power high');
    const facility = await t.login('admin@demo.facility');
    const logs = await t.post('/graphql', { query: '{ log_list(filter: { source: ["watcher"] }) { data { message } } }' }, facility.access_token);
    expect(JSON.stringify(logs.body)).not.toContain('Lamp power high');
    // the city's watches exist, and the facility's reads see none of them
    const [tenant] = await t.db.systemQuery<{ id: string }>(sql`SELECT id FROM tenants WHERE name = 'Demo Facility'`);
    const cityWatches = sql`SELECT count(*)::int AS count FROM watcher_states s JOIN watchers w ON w.id = s.watcher_id WHERE w.name = 'Lamp power high'`;
    expect((await t.db.systemQuery<{ count: number }>(cityWatches))[0].count).toBe(1);
    expect((await t.db.tenantQuery<{ count: number }>(tenant.id, cityWatches))[0].count).toBe(0);
  });
});
