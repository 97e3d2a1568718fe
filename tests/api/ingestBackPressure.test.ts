// The writer's promises hold: a QoS 1 PUBACK comes only after the commit (even when the writer
// waits to gather a batch), a flood of publishes never queues more points than the limit (the
// listener stops reading instead) and every point still arrives; retention drops whole months.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttListener } from '../../server/ingest/mqttListener.ts';
import { maintainTelemetry } from '../../server/engines/telemetryMaintenance.ts';
import { connectDevice, demoDevices, startListener, storedPoints, type DemoDevice } from '../support/devices.ts';
import { startTestApp, type TestApp } from './harness.ts';

const QUEUE_LIMIT = 200;

let t: TestApp;
let listener: MqttListener;
let sensors: DemoDevice[];

beforeAll(async () => {
  // A slow-to-gather, small writer: an early PUBACK or an unbounded queue would show.
  t = await startTestApp({ writerLimits: { lingerMs: 300, maxQueuedPoints: QUEUE_LIMIT, maxBatchPoints: 50 } });
  listener = await startListener(t);
  sensors = await demoDevices(t, 'Demo City', 'environment');
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

describe('telemetry writer under load', () => {
  it('acknowledges QoS 1 only once the points are committed', async () => {
    const client = await connectDevice(listener.port, sensors[0].token);
    const started = Date.now();
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_767_225_600_000, values: { temperature: 19.5 } }), { qos: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250); // the batch waited for company before it was written…
    expect(await storedPoints(t, sensors[0].id, 'temperature')).toContainEqual(expect.objectContaining({ value_num: 19.5 })); // …and is there
    await client.endAsync();
  });

  it('a flood of QoS 0 and 1 messages stays within the queue limit and every point is stored', async () => {
    const clients = await Promise.all(sensors.slice(0, 10).map((sensor) => connectDevice(listener.port, sensor.token)));
    let maxQueued = 0;
    const sampler = setInterval(() => { maxQueued = Math.max(maxQueued, t.app.ingestion.writer.stats().queuedPoints); }, 2);
    const base = Date.UTC(2025, 2, 1);
    const messages = 60;
    await Promise.all(clients.map(async (client, c) => {
      const sends: Promise<unknown>[] = [];
      for (let m = 0; m < messages; m++) {
        const values = Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`flood_${k}`, c * 1000 + m]));
        sends.push(client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base + m * 1000, values }), { qos: m % 2 ? 1 : 0 }));
      }
      await Promise.all(sends);
      await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base + messages * 1000, values: { flood_0: -1 } }), { qos: 1 });
    }));
    clearInterval(sampler);
    // The queue is first in, first out: each connection's last PUBACK means all it sent is stored.
    const [{ count }] = await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM telemetry WHERE key LIKE 'flood_%'`);
    expect(count).toBe(10 * (messages * 10 + 1));
    expect(maxQueued).toBeGreaterThan(0);
    expect(maxQueued).toBeLessThan(QUEUE_LIMIT + 10);
    await Promise.all(clients.map((client) => client.endAsync()));
  });
});

describe('retention', () => {
  it('drops whole months older than the retention with their roll-ups, and keeps the rest', async () => {
    const [sensor] = sensors;
    const now = Date.UTC(2026, 10, 23);
    const old = Date.UTC(2025, 0, 15);
    await t.app.ingestion.writer.write([
      { tenantId: sensor.tenantId, entityId: sensor.id, key: 'retained', ts: old, value: 1 },
      { tenantId: sensor.tenantId, entityId: sensor.id, key: 'retained', ts: Date.UTC(2026, 10, 1), value: 2 },
    ]);
    const result = await maintainTelemetry(t.db, 90, now);
    expect(result.dropped).toContain('telemetry_2025_01');
    expect(result.dropped).not.toContain('telemetry_2026_11');
    expect((await storedPoints(t, sensor.id, 'retained')).map((p) => p.value_num)).toEqual([2]);
    const hourly = await t.db.systemQuery<{ bucket: string }>(sql`SELECT bucket FROM telemetry_hourly WHERE entity_id = ${sensor.id} AND key = 'retained'`);
    expect(hourly).toHaveLength(1);
    // The next month's partition exists ahead of the data.
    const [{ exists }] = await t.db.systemQuery<{ exists: boolean }>(sql`SELECT to_regclass('telemetry_2026_12') IS NOT NULL AS exists`);
    expect(exists).toBe(true);
  });
});
