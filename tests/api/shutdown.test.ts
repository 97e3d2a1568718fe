// SIGTERM stops the server within 10 s whatever it is doing: in the middle of a flood of device
// messages (every acknowledged point is in the database afterwards), and while its database is
// gone and every background loop fails.
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startThrowawayPostgres } from '../../scripts/postgres.ts';
import { freePort, startServerProcess } from '../../scripts/serverProcess.ts';
import { openDatabase } from '../../server/db/database.ts';

const DEADLINE_MS = 10_000;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function signIn(base: string): Promise<string> {
  const answer = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@demo.city', password: 'demo1234' }) });
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** The access tokens of up to `count` devices of Demo City, as a user who may edit them reads them. */
async function deviceTokens(base: string, token: string, count: number): Promise<{ id: number; token: string }[]> {
  const graphql = async (query: string) => (await (await fetch(`${base}/graphql`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }),
  })).json()) as { data: Record<string, unknown> };
  const read = async (path: string) => (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const types = await read('/entity-type-list') as { id: number; category: string }[];
  const lighting = types.filter((type) => type.category === 'lighting').map((type) => type.id);
  const entities = await read('/entity-list') as { id: number; entity_type_id: number }[];
  const ids = entities.filter((entity) => lighting.includes(entity.entity_type_id)).slice(0, count).map((entity) => entity.id);
  return Promise.all(ids.map(async (id) => ({ id, token: ((await graphql(`{ entity_credentials(id: ${id}) { credentialsId } }`)).data.entity_credentials as { credentialsId: string }).credentialsId })));
}

describe('SIGTERM', () => {
  it('during a flood of device messages: the server stops within 10 s, and every acknowledged point is stored', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'terrasight-shutdown-'));
    dirs.push(dataDir);
    const mqttPort = await freePort();
    // a day of demo history (30 by default) is enough to share the database with the flood
    const server = await startServerProcess({ ...process.env, DATA_DIR: dataDir, MQTT_PORT: String(mqttPort), SEED: 'demo', DEMO_HISTORY_DAYS: '1', SIMULATE: 'off' });
    const devices = await deviceTokens(server.base, await signIn(server.base), 8).catch(async (error: unknown) => {
      await server.stop();
      throw error;
    });
    expect(devices.length).toBeGreaterThan(3);

    // Each device keeps 16 QoS 1 messages in flight, 5 values each, until its connection ends.
    const acknowledged = new Map<number, number[]>();
    let flooding = true;
    const clients: MqttClient[] = [];
    const floods = devices.map(async (device, index) => {
      const client = await new Promise<MqttClient>((resolve, reject) => {
        const c = mqtt.connect(`mqtt://127.0.0.1:${mqttPort}`, { username: device.token, reconnectPeriod: 0, keepalive: 0 });
        c.once('connect', () => resolve(c));
        c.once('error', reject);
      });
      clients.push(client);
      const acked: number[] = [];
      acknowledged.set(device.id, acked);
      let ts = Date.UTC(2026, 0, 1) + index * 1_000_000_000;
      const one = async () => {
        while (flooding && client.connected) {
          const at = ts++;
          const values = Object.fromEntries(Array.from({ length: 5 }, (_v, k) => [`flood_${k}`, at % 1000]));
          const ok = await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: at, values }), { qos: 1 }).then(() => true, () => false);
          if (ok) acked.push(at);
          else return;
        }
      };
      await Promise.all(Array.from({ length: 16 }, one));
    });

    // The first start also writes its demo history: the flood's first acknowledgements wait for room.
    const acknowledgedSoFar = () => [...acknowledged.values()].reduce((sum, list) => sum + list.length, 0);
    for (const until = Date.now() + 180_000; acknowledgedSoFar() < 500 && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const signalled = performance.now();
    server.signal('SIGTERM');
    const end = await server.exited;
    const took = performance.now() - signalled;
    flooding = false;
    for (const client of clients) client.end(true); // messages still in flight were never acknowledged
    void floods;

    expect(took).toBeLessThan(DEADLINE_MS);
    expect(end).toEqual({ code: 0, signal: null }); // closed in order, not cut off at the deadline
    expect(acknowledgedSoFar()).toBeGreaterThan(500);

    const db = await openDatabase({ dataDir });
    try {
      for (const [entityId, stamps] of acknowledged) {
        if (!stamps.length) continue;
        const [{ missing }] = await db.systemQuery<{ missing: number }>(sql`
          SELECT count(*)::int AS missing FROM unnest(${`{${stamps.join(',')}}`}::bigint[]) AS acked(ms)
          WHERE NOT EXISTS (SELECT 1 FROM telemetry t WHERE t.entity_id = ${entityId} AND t.key = 'flood_0' AND t.ts = to_timestamp(acked.ms / 1000.0))`);
        expect(missing, `device ${entityId}: ${missing} of ${stamps.length} acknowledged messages missing`).toBe(0);
      }
    } finally {
      await db.close();
    }
  }, 300_000);

  it('while its database is gone and every background loop fails: the server stops within 10 s', async () => {
    const postgres = await startThrowawayPostgres();
    expect(postgres, 'needs PostgreSQL (apt-get install postgresql)').not.toBeNull();
    const server = await startServerProcess({
      ...process.env, DATA_DIR: 'memory://', DATABASE_URL: postgres!.url, JWT_SECRET: 'shutdown-test-secret-that-is-long-enough-for-hs256',
      MQTT_PORT: '0', SEED: 'demo', SIMULATE: 'off', TELEMETRY_RETENTION_DAYS: '30',
    });
    try {
      const token = await signIn(server.base);
      await postgres!.stop();
      // The listener reconnects, maintenance retries, requests find no database.
      const answer = await fetch(`${server.base}/entity-list?search=x`, { headers: { authorization: `Bearer ${token}` } });
      expect([401, 503]).toContain(answer.status);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const signalled = performance.now();
      server.signal('SIGTERM');
      await server.exited;
      expect(performance.now() - signalled).toBeLessThan(DEADLINE_MS);
    } finally {
      await server.stop();
      await postgres!.stop().catch(() => {});
    }
  }, 300_000);
});
