// A device's lastActivityTime moves while it reports (MQTT with mqtt.js, HTTP), at most once per
// write interval (the server's minute): the first message after the interval writes its time, the
// others within it write nothing. The interval is crossed by moving the test's (fake) Date, not
// waited out. The web app's reads (GET /entity/:id, the cached GET
// /entity-list) and the entity_updated subscription show it; other tenants see none of it.
import { sql } from 'drizzle-orm';
import { createClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { MqttListener } from '../../server/ingest/mqttListener.ts';
import { LAST_ACTIVITY_WRITE_INTERVAL_MS } from '../../server/ingest/deviceActivity.ts';
import { connectDevice, isProbe, startDeviceApp, until, untilSubscribed, type DemoDevice } from '../support/devices.ts';
import type { TestApp } from './harness.ts';

const INTERVAL_MS = LAST_ACTIVITY_WRITE_INTERVAL_MS;
/** A write that should not happen would have been flushed (every 50 ms here) by then. */
const SETTLE_MS = 300;

let t: TestApp;
let listener: MqttListener;
let lamps: DemoDevice[];
let facilityLamps: DemoDevice[];
let cityGateway: DemoDevice;
let cityAdmin: string;
let facilityAdmin: string;
let httpUrl: string;

beforeAll(async () => {
  ({ t, httpUrl, listener, lamps, facilityLamps, cityGateway } = await startDeviceApp({ ingestLimits: { lastActivityWriteIntervalMs: INTERVAL_MS, lastActivityFlushMs: 50 } }));
  cityAdmin = (await t.login('admin@demo.city')).access_token;
  facilityAdmin = (await t.login('admin@demo.facility')).access_token;
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});
// Date runs as the clock does until a test moves it on (afterInterval); timers stay real.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The entity's lastActivityTime as the entity view reads it (GET /entity/:id). */
async function lastActivity(id: number, token = cityAdmin): Promise<unknown> {
  const { status, body } = await t.get(`/entity/${id}`, token);
  expect(status).toBe(200);
  return body.attributes.lastActivityTime;
}

/** …and as the cached entity list reads it. */
async function listedLastActivity(id: number, token = cityAdmin): Promise<unknown> {
  const { status, body } = await t.get(`/entity-list?ids=${id}`, token);
  expect(status).toBe(200);
  return body[0].attributes.lastActivityTime;
}

/** Waits until the lastActivityTime differs from `previous`; answers it. */
async function movedFrom(id: number, previous: unknown): Promise<number> {
  await until(async () => (await lastActivity(id)) !== previous);
  return (await lastActivity(id)) as number;
}

/**
 * Moves the clock well past the interval since `writtenBy`: the server starts the interval when
 * its write of that time is done, a moment later (longer on a busy machine).
 */
const afterInterval = (writtenBy: number) => vi.setSystemTime(Math.max(Date.now(), writtenBy + INTERVAL_MS + 10_000));

/** POSTs a report (a string is sent as it is). */
const httpPost = (token: string, kind: 'telemetry' | 'attributes', body: unknown) => t.app.inject({
  method: 'POST', url: `/api/v1/${token}/${kind}`, payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' },
});

describe('lastActivityTime over HTTP', () => {
  it('the first report writes its time, reports within the interval keep it, the first after the interval writes again', async () => {
    const lamp = lamps[0];
    expect(await lastActivity(lamp.id)).toBeUndefined();
    expect(await listedLastActivity(lamp.id)).toBeUndefined(); // now cached

    const sent = Date.now();
    expect((await httpPost(lamp.token, 'telemetry', { power: 10 })).statusCode).toBe(200);
    const answered = Date.now();
    const first = await movedFrom(lamp.id, undefined);
    expect(first).toBeGreaterThanOrEqual(sent);
    expect(first).toBeLessThanOrEqual(answered);
    await until(async () => (await listedLastActivity(lamp.id)) === first);

    for (const power of [11, 12, 13]) expect((await httpPost(lamp.token, 'telemetry', { power })).statusCode).toBe(200);
    expect((await httpPost(lamp.token, 'attributes', { firmware: '1.0' })).statusCode).toBe(200);
    expect(Date.now() - sent).toBeLessThan(INTERVAL_MS); // else this step proves nothing
    await sleep(SETTLE_MS);
    expect(await lastActivity(lamp.id)).toBe(first);

    afterInterval(answered);
    const sentAgain = Date.now();
    expect((await httpPost(lamp.token, 'attributes', { firmware: '1.1' })).statusCode).toBe(200);
    const answeredAgain = Date.now();
    const second = await movedFrom(lamp.id, first);
    expect(second).toBeGreaterThanOrEqual(sentAgain);
    expect(second).toBeLessThanOrEqual(answeredAgain);
    await until(async () => (await listedLastActivity(lamp.id)) === second);
  });

  it('a refused report (400) is no activity', async () => {
    const lamp = lamps[1];
    expect((await httpPost(lamp.token, 'telemetry', '{"power": 1e999}')).statusCode).toBe(400);
    expect((await httpPost(lamp.token, 'attributes', [1, 2])).statusCode).toBe(400);
    await sleep(SETTLE_MS);
    expect(await lastActivity(lamp.id)).toBeUndefined();
  });

  it("other tenants neither see a device's activity nor have theirs moved by it", async () => {
    const facilityLamp = facilityLamps[0];
    const cityLamp = lamps[2];
    expect((await httpPost(facilityLamp.token, 'telemetry', { power: 5 })).statusCode).toBe(200);
    await until(async () => typeof (await lastActivity(facilityLamp.id, facilityAdmin)) === 'number');
    expect((await t.get(`/entity/${facilityLamp.id}`, cityAdmin)).status).toBe(404);
    expect((await t.get(`/entity-list?ids=${facilityLamp.id}`, cityAdmin)).body).toEqual([]);
    expect(await lastActivity(cityLamp.id)).toBeUndefined();
  });
});

describe('lastActivityTime over MQTT', () => {
  it('connecting writes the time; telemetry and attributes move it at most once per interval, live to the tenant only', async () => {
    const lamp = lamps[3];
    const received: { diff: { attributes?: Record<string, unknown> } }[] = [];
    const strangerReceived: unknown[] = [];
    const subscribe = (token: string, into: unknown[]) => {
      const ws = createClient({ url: `ws://${httpUrl}/graphql`, connectionParams: { authorization: `Bearer ${token}` }, lazy: false, retryAttempts: 0 });
      ws.subscribe({ query: `subscription { entity_updated(entity_ids: ["${lamp.id}"]) { id diff } }` }, {
        next: (value) => into.push(value.data?.entity_updated), error: () => {}, complete: () => {},
      });
      return ws;
    };
    const sockets = [subscribe(cityAdmin, received), subscribe(facilityAdmin, strangerReceived)];
    onTestFinished(async () => {
      await Promise.all(sockets.map((ws) => ws.dispose()));
    });
    await untilSubscribed(t, lamp.tenantId, lamp.id, () => received);
    await untilSubscribed(t, facilityLamps[0].tenantId, lamp.id, () => strangerReceived);
    const activityUpdates = () => received.filter((update) => update.diff.attributes?.lastActivityTime !== undefined);

    const connectedAt = Date.now();
    const client = await connectDevice(listener.port, lamp.token);
    onTestFinished(() => client.endAsync());
    const connected = await movedFrom(lamp.id, undefined);
    expect(connected).toBeGreaterThanOrEqual(connectedAt);

    for (const power of [20, 21, 22]) await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ power }), { qos: 1 });
    await client.publishAsync('v1/devices/me/attributes', JSON.stringify({ firmware: '2.0' }), { qos: 1 });
    expect(Date.now() - connected).toBeLessThan(INTERVAL_MS);
    await sleep(SETTLE_MS);
    expect(await lastActivity(lamp.id)).toBe(connected);

    afterInterval(connected);
    const sent = Date.now();
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ power: 23 }), { qos: 0 });
    const moved = await movedFrom(lamp.id, connected);
    expect(moved).toBeGreaterThanOrEqual(sent);
    await until(() => activityUpdates().some((update) => update.diff.attributes!.lastActivityTime === moved));
    // the connect's write (with active) and this one: nothing for the reports in between
    expect(activityUpdates().map((update) => update.diff.attributes!.lastActivityTime)).toEqual([connected, moved]);
    expect(strangerReceived.filter((update) => !isProbe(update))).toEqual([]);
  });

  it("a gateway's telemetry moves the lastActivityTime of the devices behind it", async () => {
    const gateway = await connectDevice(listener.port, cityGateway.token);
    onTestFinished(() => gateway.endAsync());
    const sent = Date.now();
    await gateway.publishAsync('v1/gateway/telemetry', JSON.stringify({ 'Activity probe': [{ values: { temperature: 19.5 } }] }), { qos: 1 });
    const [child] = await t.db.systemQuery<{ id: number }>(sql`SELECT id FROM entities WHERE thingsboard_name = 'Activity probe'`);
    expect(await movedFrom(child.id, undefined)).toBeGreaterThanOrEqual(sent);
  });
});
