// The embedded database works on a thread of its own: a long statement leaves the event loop free,
// a statement over its time limit is cut off, and on a data directory the database is reopened
// with everything committed and nothing of the cut-off transaction.
import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { isDatabaseUnavailable } from '../../server/db/databaseErrors.ts';
import { slowStatement } from '../support/slowStatement.ts';

/** The longest pause of a 5 ms timer while `work` runs. */
/** How many times a 10 ms timer ran while `work` was under way (once or twice, after it, if it held the event loop). */
async function timerRunsDuring(work: () => Promise<unknown>): Promise<number> {
  let runs = 0;
  const timer = setInterval(() => runs++, 10);
  try {
    await work();
    return runs; // read before any timer held back by a blocked loop could run
  } finally {
    clearInterval(timer);
  }
}

describe('the embedded database in a worker thread', () => {
  const dirs: string[] = [];
  const opened: Database[] = [];
  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => {});
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the event loop free while a statement runs', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    opened.push(db);
    // On the server's own thread the timer could run only once the second is over; here it keeps
    // running through it (a hundred times on a quiet machine, still dozens beside a busy one).
    expect(await timerRunsDuring(() => db.systemQuery(sql`SELECT pg_sleep(1)`, { longRunning: true }))).toBeGreaterThanOrEqual(10);
  });

  it('lets no other connection into an open transaction: what they send meanwhile runs after it, outside it', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    opened.push(db);
    await db.systemQuery(sql`CREATE TABLE kept (id int)`);
    let meanwhile: Promise<unknown> | undefined;
    const undone = await db.systemTx(async (tx) => {
      await tx.execute(sql`INSERT INTO kept VALUES (1)`);
      // another connection writes and reads while this transaction is open
      meanwhile = Promise.all([db.systemQuery(sql`INSERT INTO kept VALUES (2)`), db.systemQuery(sql`SELECT count(*)::int AS n FROM kept`)]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`INSERT INTO kept VALUES (3)`);
      throw new Error('undo');
    }).catch((error: Error) => error.message);
    expect(undone).toBe('undo');
    const [, seen] = await meanwhile! as [unknown, { n: number }[]];
    expect(seen).toEqual([{ n: 1 }]); // only its own row: neither 1 nor 3 was ever committed
    expect(await db.systemQuery(sql`SELECT id FROM kept ORDER BY id`)).toEqual([{ id: 2 }]);
  });

  it('cuts off a statement over its limit at once and rolls its transaction back (memory://)', async () => {
    const db = await openDatabase({ dataDir: 'memory://', statementTimeoutMs: 200 });
    opened.push(db);
    await db.systemQuery(sql`CREATE TABLE kept (id int)`);
    const slow = await slowStatement(db, 'sleep', 1.5);
    await db.systemQuery(sql.raw(`CREATE FUNCTION test_slow() RETURNS void LANGUAGE plpgsql AS $$ BEGIN ${slow.body} END $$`));
    const failure = await db.systemTx(async (tx) => {
      await tx.execute(sql`INSERT INTO kept VALUES (1)`);
      await tx.execute(sql`SELECT test_slow()`);
    }).catch((error: unknown) => error);
    const answeredAt = Date.now();
    expect(isDatabaseUnavailable(failure)).toBe(true); // answered 503
    // The statement runs to its end in the worker, after the answer; then its transaction is rolled back.
    await slow.expectCutOff(answeredAt, false);
    expect(await db.systemQuery(sql`SELECT count(*)::int AS n FROM kept`)).toEqual([{ n: 0 }]);
    expect(await db.systemQuery(sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });

  it('on a data directory, reopens the database: committed rows stay, the cut-off transaction is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'terrasight-embedded-'));
    dirs.push(dir);
    const timeouts: boolean[] = [];
    const db = await openDatabase({ dataDir: dir, statementTimeoutMs: 300, onEmbeddedTimeout: (restarted) => timeouts.push(restarted) });
    opened.push(db);
    const notified: string[] = [];
    await db.listen('terrasight_tenant_data_changed', (payload) => notified.push(payload));
    await db.systemQuery(sql`CREATE TABLE kept (id int)`);
    await db.systemQuery(sql`INSERT INTO kept VALUES (1)`);

    const started = performance.now();
    const failure = await db.systemTx(async (tx) => {
      await tx.execute(sql`INSERT INTO kept VALUES (2)`);
      await tx.execute(sql`SELECT pg_sleep(30)`);
    }).catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(isDatabaseUnavailable(failure)).toBe(true); // answered 503
    expect(timeouts).toEqual([true]);

    // The new worker has recovered the directory: the committed row, not the cut-off one.
    expect(await db.systemQuery(sql`SELECT id FROM kept ORDER BY id`)).toEqual([{ id: 1 }]);
    await db.systemQuery(sql`INSERT INTO kept VALUES (3)`);
    expect(await db.systemQuery(sql`SELECT count(*)::int AS n FROM kept`)).toEqual([{ n: 2 }]);
    // Notifications are heard again on the new session.
    await db.systemQuery(sql`SELECT pg_notify('terrasight_tenant_data_changed', 'after')`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(notified).toContain('after');
  });
});
