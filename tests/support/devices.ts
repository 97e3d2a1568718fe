// Test helpers for device ingestion: the MQTT listener of a test app, demo devices and their
// tokens, real MQTT clients (mqtt.js and Debian's mosquitto_pub).
import { execFile } from 'node:child_process';
import { sql } from 'drizzle-orm';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { isoTime } from '../../server/db/rows.ts';
import { startMqttListener, type MqttListener } from '../../server/ingest/mqttListener.ts';
import { startTestApp, type TestApp, type TestAppOptions } from '../api/harness.ts';

export interface DemoDevice { id: number; tenantId: string; token: string; name: string; typeId: number; gatewayName: string | null }

export async function startListener(t: TestApp): Promise<MqttListener> {
  return startMqttListener(t.app.ingestion.broker, { port: 0, host: '127.0.0.1' });
}

/**
 * A test app whose device doors are open: HTTP on a free port (`httpUrl`, host:port) and the MQTT
 * listener; with both demo tenants' street lamps and first gateways.
 */
export async function startDeviceApp(options: TestAppOptions = {}) {
  const t = await startTestApp(options);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const httpUrl = `127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const listener = await startListener(t);
  const [lamps, facilityLamps, [cityGateway], [facilityGateway]] = await Promise.all([
    demoDevices(t, 'Demo City', 'lighting'), demoDevices(t, 'Demo Facility', 'lighting'),
    demoDevices(t, 'Demo City', 'gateway'), demoDevices(t, 'Demo Facility', 'gateway'),
  ]);
  return { t, httpUrl, listener, lamps, facilityLamps, cityGateway, facilityGateway };
}

/** Demo devices of a tenant (by an admin's e-mail domain): street lamps, gateways… */
export async function demoDevices(t: TestApp, tenantName: string, category: string): Promise<DemoDevice[]> {
  return t.db.systemQuery<DemoDevice>(sql`
    SELECT e.id, e.tenant_id AS "tenantId", e.access_token AS token, e.thingsboard_name AS "gatewayName", e.entity_type_id AS "typeId", e.name->>'en' AS name
    FROM entities e JOIN entity_types et ON et.id = e.entity_type_id JOIN tenants tn ON tn.id = e.tenant_id
    WHERE tn.name = ${tenantName} AND et.category = ${category} ORDER BY e.id`);
}

/** Connects as a device to the TCP listener on `port`, or to `url` (MQTT over WebSocket). */
export function connectDevice(port: number, token: string | undefined, options: IClientOptions = {}, url = `mqtt://127.0.0.1:${port}`): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, { username: token, reconnectPeriod: 0, connectTimeout: 5000, ...options });
    client.once('connect', () => resolve(client));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}

export interface MosquittoResult { code: number; output: string }

/** Debian's mosquitto_pub (package mosquitto-clients), QoS 1 by default. */
export function mosquittoPub(port: number, token: string, topic: string, message: string, qos = 1): Promise<MosquittoResult> {
  return new Promise((resolve) => {
    execFile('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(port), '-u', token, '-t', topic, '-m', message, '-q', String(qos)], { timeout: 10_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }));
  });
}

/** Polls `check` until it holds; generous, and on the monotonic clock (a test may fake Date). */
export const until = async (check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** What `untilSubscribed` publishes: no entity's real change carries it. */
const PROBE = 'subscriptionProbe';
export const isProbe = (update: unknown) => !!(update as { diff?: Record<string, unknown> } | undefined)?.diff?.[PROBE];

/**
 * Waits until a GraphQL subscription to `entity_updated` of `entityId` in the tenant is live: it
 * publishes a marked update (isProbe) until `received()` holds one, instead of sleeping and hoping.
 */
export async function untilSubscribed(t: TestApp, tenantId: string, entityId: number, received: () => unknown[]) {
  await until(async () => {
    await t.app.live.publishEntityUpdate(tenantId, { id: entityId, entity_type_id: 0, diff: { [PROBE]: true }, updated_at: new Date().toISOString() });
    await new Promise((r) => setTimeout(r, 50));
    return received().some(isProbe);
  });
}

/** The stored telemetry of an entity and key, oldest first (read as the system, to check storage). */
export async function storedPoints(t: TestApp, entityId: number, key: string) {
  return t.db.systemQuery<{ ts: string; value_num: number | null; value_text: string | null; value_bool: boolean | null; value_json: unknown }>(sql`
    SELECT ${isoTime(sql`ts`)} AS ts, value_num, value_text, value_bool, value_json
    FROM telemetry WHERE entity_id = ${entityId} AND key = ${key} ORDER BY ts`);
}
