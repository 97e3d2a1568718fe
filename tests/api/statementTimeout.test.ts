// A statement that runs longer than STATEMENT_TIMEOUT_MS is cut off on both databases: the client
// gets the generic 503 at the limit, and nothing of its transaction is written.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowStatement, type SlowStatement } from '../support/slowStatement.ts';
import { startTestApp, usingPostgres, type TestApp } from './harness.ts';

const LIMIT_MS = 400;

describe(`statement timeout on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  let t: TestApp;
  let token: string;
  let slow: SlowStatement;

  beforeAll(async () => {
    t = await startTestApp({ statementTimeoutMs: LIMIT_MS });
    token = (await t.login('admin@demo.city')).access_token;
    // A watcher named "slow" takes 2 s to insert: the statement stalls after the row is written.
    slow = await slowStatement(t.db, 'insert', 2);
    await t.db.systemQuery(sql.raw(`
      CREATE FUNCTION test_slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.name = 'slow' THEN ${slow.body} END IF; RETURN NEW; END $$;
      CREATE TRIGGER test_slow_insert AFTER INSERT ON watchers FOR EACH ROW EXECUTE FUNCTION test_slow_insert()`));
  });
  afterAll(() => t?.close());

  const watcher = (name: string) => ({
    input: { name, query: { key: 'temperature', aggregation: 'avg' }, condition: { operator: '>', kind: 'number', value: 30 }, interval: 120 },
  });

  it('answers the generic 503 at the limit, before the statement ends, and writes nothing', async () => {
    const { status, body, headers } = await t.send({ method: 'POST', path: '/create-watcher', token, body: watcher('slow') });
    const answeredAt = Date.now();
    expect(status).toBe(503);
    expect(body.errors[0]).toEqual({ code: 'UNAVAILABLE', message: 'Something went wrong. Try again.' });
    expect(headers['retry-after']).toBeDefined();
    expect(JSON.stringify(body)).not.toMatch(/statement|timeout|pg_sleep|watchers/i);

    // PostgreSQL cancels the statement; the embedded database cannot stop it early and ends it
    // after the answer. Then nothing of its transaction is there.
    await slow.expectCutOff(answeredAt, usingPostgres());
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
