// The cluster bus between instances on one PostgreSQL database (server/live/clusterBus.ts): events
// go in batches, a burst in several rows, an instance never hears its own, and one that cannot
// read everything it missed says so. PostgreSQL only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { startClusterBus, type ClusterEvent } from '../../server/live/clusterBus.ts';
import { until } from '../support/devices.ts';
import { freshPostgresDatabase, skipUnlessPostgres, usingPostgres } from './harness.ts';

let dropDatabase: (() => Promise<void>) | undefined;
const opened: Database[] = [];
let url: string;

beforeAll(async () => {
  if (!usingPostgres()) return;
  const fresh = await freshPostgresDatabase(process.env.TEST_DATABASE_URL!);
  url = fresh.url;
  dropDatabase = fresh.drop;
});
afterAll(async () => {
  for (const db of opened) await db.close();
  await dropDatabase?.();
});

async function instance(id: string, keepMs?: number) {
  const db = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  opened.push(db);
  const heard: ClusterEvent[] = [];
  let gaps = 0;
  const bus = await startClusterBus({ db, instanceId: id, deliver: (event) => heard.push(event), onGap: () => { gaps++; }, onError: () => {}, keepMs });
  return { db, bus, heard, gaps: () => gaps };
}

describe('the cluster bus', () => {
  beforeEach(skipUnlessPostgres('two instances on one database'));
  it('carries a burst to the other instance in order, in a few rows, and never back to its sender', { timeout: 30_000 }, async () => {
    const one = await instance('00000000-0000-4000-8000-000000000001');
    const two = await instance('00000000-0000-4000-8000-000000000002');
    for (let n = 0; n < 2_500; n++) one.bus.send({ topic: 'entity_updated:t', payload: { n } });
    await until(() => two.heard.length === 2_500, 10_000);
    expect(two.heard.map((event) => (event.payload as { n: number }).n)).toEqual([...Array(2_500).keys()]);
    expect(one.heard).toEqual([]);
    const [{ rows }] = await one.db.systemQuery<{ rows: number }>(sql`SELECT count(*)::int AS rows FROM live_event_batches`);
    expect(rows).toBe(3); // 1,000 events a row
    await Promise.all([one.bus.close(), two.bus.close()]);
  });

  it('says when it could not read all it missed while its listening connection was away', { timeout: 30_000 }, async () => {
    const deaf = await instance('00000000-0000-4000-8000-000000000003', 30_000); // keeps nothing past the commit margin
    await deaf.db.systemQuery(sql`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`);
    await until(() => deaf.gaps() > 0, 10_000);
    expect(deaf.gaps()).toBe(1);
    await deaf.bus.close();
  });
});
