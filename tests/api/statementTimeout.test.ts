// A statement that runs longer than STATEMENT_TIMEOUT_MS is cut off on both databases: the client
// gets the generic 503 at about the limit, and nothing of its transaction is written.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, usingPostgres, type TestApp } from './harness.ts';

const LIMIT_MS = 400;

describe(`statement timeout on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ statementTimeoutMs: LIMIT_MS });
    token = (await t.login('admin@demo.city')).access_token;
    // A watcher named "slow" takes 2 s to insert: the statement stalls after the row is written.
    await t.db.systemQuery(sql.raw(`
      CREATE FUNCTION test_slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.name = 'slow' THEN PERFORM pg_sleep(2); END IF; RETURN NEW; END $$;
      CREATE TRIGGER test_slow_insert AFTER INSERT ON watchers FOR EACH ROW EXECUTE FUNCTION test_slow_insert()`));
  });
  afterAll(() => t?.close());

  const watcher = (name: string) => ({
    input: { name, query: { key: 'temperature', aggregation: 'avg' }, condition: { operator: '>', kind: 'number', value: 30 }, interval: 120 },
  });

  it('answers the generic 503 at about the limit and writes nothing', async () => {
    const started = performance.now();
    const { status, body, headers } = await t.send({ method: 'POST', path: '/create-watcher', token, body: watcher('slow') });
    const took = performance.now() - started;
    expect(status).toBe(503);
    expect(body.errors[0]).toEqual({ code: 'UNAVAILABLE', message: 'Something went wrong. Try again.' });
    expect(headers['retry-after']).toBeDefined();
    expect(JSON.stringify(body)).not.toMatch(/statement|timeout|pg_sleep|watchers/i);
    expect(took).toBeLessThan(1_800); // well before the 2 s statement would have ended

    // Once the statement is over (the embedded database cannot stop it early), nothing of its
    // transaction is there.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = await t.get('/watcher-list', token);
    expect(after.status).toBe(200);
    expect(after.body.map((w: { name: string }) => w.name)).not.toContain('slow');
    const [{ count }] = await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM watchers WHERE name = 'slow'`);
    expect(count).toBe(0);
  });

  it('serves the next requests, and a statement within the limit is not cut off', async () => {
    const created = await t.post('/create-watcher', watcher('quick'), token);
    expect(created.status).toBe(200);
    expect((await t.get('/watcher-list', token)).body.map((w: { name: string }) => w.name)).toContain('quick');
  });
});
