// Two instances on one PostgreSQL database and one of them killed with SIGKILL in the middle of
// its scheduler runs: no occurrence is lost and none is run twice. The killed instance is a real
// server process (`server/main.ts`); the one that carries on is this process's app. PostgreSQL
// only: the embedded database belongs to one process.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../scripts/serverProcess.ts';
import { makeEntities } from '../support/testEntities.ts';
import { until } from '../support/until.ts';
import { JWT_SECRET, startTestApp, skipUnlessPostgres, usingPostgres, type TestApp } from './harness.ts';

const SCHEDULERS = 200;
let t: TestApp | undefined;
let killed: ServerProcess | undefined;

beforeAll(async () => {
  if (usingPostgres()) t = await startTestApp(); // its own engines stay off until the other instance is dead
});
afterAll(async () => {
  await killed?.stop();
  await t?.close();
});

describe('an instance killed mid-run (PostgreSQL)', () => {
  beforeEach(skipUnlessPostgres('a second instance on the same database'));
  it('leaves every due occurrence to run exactly once on the instance that lives', { timeout: 120_000 }, async () => {
    const app = t!;
    const admin = (await app.login('admin@demo.city')).access_token;
    const [{ id: tenantId }] = await app.db.systemQuery<{ id: string }>(sql`SELECT id FROM tenants WHERE name = 'Demo City'`);
    const { ids: [meter] } = await makeEntities(app, tenantId, 'Night meter', 1);
    const ids: number[] = [];
    for (let n = 0; n < SCHEDULERS; n++) {
      const created = await app.post('/create-scheduler', {
        input: {
          name: `Nightly ${n}`, status: 'active', entity_ids: [meter],
          definition: { kind: 'periodic', expression: '0 3 * * *', aggregation: 'static-value', value: n, time_slot: 'last-week', target_attribute: `nightly_${n}` },
        },
      }, admin);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push(created.body.id);
    }
    const runCount = async () => (await app.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM scheduler_runs WHERE scheduler_id = ANY(${`{${ids.join(',')}}`}::int[])`))[0].count;

    killed = await startServerProcess({
      ...process.env, DATABASE_URL: app.databaseUrl, DATA_DIR: 'memory://', JWT_SECRET, MQTT_PORT: '0', SEED: 'none', SIMULATE: 'off',
    });
    // all due at once: the other instance claims them ten at a time and runs them one by one
    await app.db.systemQuery(sql`UPDATE schedulers SET next_run_at = now() - interval '1 second' WHERE id = ANY(${`{${ids.join(',')}}`}::int[])`);
    // killed once it has run some and holds claims on others (most likely in a run's transaction)
    const claimedCount = async () => (await app.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM schedulers WHERE claimed_until > now()`))[0].count;
    await until(async () => ({ ran: await runCount(), claimed: await claimedCount() }), ({ ran, claimed }) => ran >= 10 && claimed > 0, 30_000);
    killed.signal('SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    const ranBeforeTheKill = await runCount();
    expect(ranBeforeTheKill).toBeLessThan(SCHEDULERS); // it died with work left

    // What it had claimed waits for its claim to lapse (60 s); the test brings that moment forward.
    await app.db.systemQuery(sql`UPDATE schedulers SET claimed_until = now() WHERE claimed_until > now()`);
    const survivor = await startTestApp({ db: app.db, engines: true, enginesEveryMs: 200 });
    try {
      await until(runCount, (count) => count >= SCHEDULERS, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // a few more passes: nothing runs again
      const runs = await app.db.systemQuery<{ scheduler_id: number; runs: number; ok: number }>(sql`SELECT scheduler_id, count(*)::int AS runs,
          count(*) FILTER (WHERE result = 'ok')::int AS ok FROM scheduler_runs WHERE scheduler_id = ANY(${`{${ids.join(',')}}`}::int[]) GROUP BY scheduler_id`);
      expect(runs).toHaveLength(SCHEDULERS);
      expect(runs.filter((run) => run.runs !== 1 || run.ok !== 1)).toEqual([]);
      const logs = await app.db.systemQuery<{ source_id: string; count: number }>(sql`SELECT message_data->>'source_id' AS source_id, count(*)::int AS count FROM logs
        WHERE source = 'scheduler' AND (message_data->>'source_id')::int = ANY(${`{${ids.join(',')}}`}::int[]) GROUP BY 1`);
      expect(logs).toHaveLength(SCHEDULERS);
      expect(logs.filter((log) => log.count !== 1)).toEqual([]);
      const pending = await app.db.systemQuery(sql`SELECT id FROM schedulers WHERE id = ANY(${`{${ids.join(',')}}`}::int[]) AND (next_run_at <= now() OR claimed_until IS NOT NULL)`);
      expect(pending).toEqual([]);
    } finally {
      await survivor.app.close();
    }
  });
});
