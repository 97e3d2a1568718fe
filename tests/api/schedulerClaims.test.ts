// Claiming due schedulers (server/db/schedulerQueries.ts): tenants take turns within a claim, so a
// tenant with thousands due at one minute fills claims alone yet never makes another wait more
// than one claim; a claimed scheduler is not claimed again while its claim holds.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDueSchedulers } from '../../server/db/schedulerQueries.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let city: string;
let facility: string;

/** `count` copies of a scheduler of the tenant, due a minute ago. */
async function dueSchedulers(tenantId: string, token: string, count: number) {
  const created = await t.post('/create-scheduler', {
    input: { name: 'Due', status: 'active', entity_ids: [], definition: { kind: 'single', run_at: '2099-01-01T00:00:00.000Z', aggregation: 'static-value', value: 1, target_attribute: 'x' } },
  }, token);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const [{ columns }] = await t.db.systemQuery<{ columns: string }>(sql`SELECT string_agg(quote_ident(column_name), ', ') AS columns
    FROM information_schema.columns WHERE table_name = 'schedulers' AND column_name NOT IN ('id', 'next_run_at')`);
  await t.db.systemQuery(sql`INSERT INTO schedulers (${sql.raw(columns)}, next_run_at)
    SELECT ${sql.raw(columns)}, now() - interval '1 minute' FROM schedulers, generate_series(1, ${count - 1}) WHERE id = ${created.body.id}`);
  await t.db.systemQuery(sql`UPDATE schedulers SET next_run_at = now() - interval '1 minute' WHERE tenant_id = ${tenantId}`);
}

beforeAll(async () => {
  t = await startTestApp();
  const cityAdmin = (await t.login('admin@demo.city')).access_token;
  const facilityAdmin = (await t.login('admin@demo.facility')).access_token;
  city = (await t.get('/tenant', cityAdmin)).body.id;
  facility = (await t.get('/tenant', facilityAdmin)).body.id;
  await t.db.systemQuery(sql`UPDATE schedulers SET status = 'inactive'`); // the seeded ones out of the way
  await dueSchedulers(city, cityAdmin, 250);
  await dueSchedulers(facility, facilityAdmin, 2);
});
afterAll(() => t?.close());

describe('claiming due schedulers', () => {
  it('takes tenants in turn, fills a claim with one tenant\'s when it alone has more, and claims each once', async () => {
    const first = await claimDueSchedulers(t.db, 100);
    expect(first).toHaveLength(100);
    expect(first.filter((row) => row.tenant_id === facility)).toHaveLength(2); // not behind the city's 250
    const claimed = new Set(first.map((row) => row.id));
    for (let claim = 0; claim < 3; claim++) {
      for (const row of await claimDueSchedulers(t.db, 100)) {
        expect(claimed.has(row.id)).toBe(false);
        claimed.add(row.id);
      }
    }
    expect(claimed.size).toBe(252);
    expect(await claimDueSchedulers(t.db, 100)).toEqual([]);
  });
});
