// The scheduler engine as API clients see it: a due occurrence writes each aggregation over its time
// slot into the target attribute of its entities and logs it; an occurrence runs once with two
// instances, also after a claim that lapsed (an instance died); missed occurrences of the last day
// are caught up one by one, older ones skipped and logged once; another tenant sees none of it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telemetryWriter } from '../../server/telemetry/telemetryWriter.ts';
import { makeEntities } from '../support/testEntities.ts';
import { until } from '../support/until.ts';
import { startTestApp, type TestApp } from './harness.ts';

const ENGINE_EVERY_MS = 200;
const DAY = 86_400_000;
let t: TestApp;
let admin: string;
let tenantId: string;
let meters: number[];

/** Monday 00:00 UTC of the current week (the demo tenants keep UTC). */
const thisMonday = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7));
};

beforeAll(async () => {
  t = await startTestApp({ engines: true, enginesEveryMs: ENGINE_EVERY_MS });
  admin = (await t.login('admin@demo.city')).access_token;
  [{ id: tenantId }] = await t.db.systemQuery<{ id: string }>(sql`SELECT id FROM tenants WHERE name = 'Demo City'`);
  ({ ids: meters } = await makeEntities(t, tenantId, 'Run meter', 2));
  // last week, Tuesday to Thursday at noon: 10, 20, 60 on the first meter, 5 on the second; one value this week
  const monday = thisMonday();
  const writer = telemetryWriter(t.db);
  await writer.write([
    ...[10, 20, 60].map((value, day) => ({ tenantId, entityId: meters[0], key: 'load', ts: monday - 7 * DAY + (day + 1) * DAY + DAY / 2, value })),
    { tenantId, entityId: meters[1], key: 'load', ts: monday - 5 * DAY, value: 5 },
    { tenantId, entityId: meters[0], key: 'load', ts: monday + 60_000, value: 1_000 },
    // the 15th of last month and 1 July of last year, and this month: for the other time slots
    ...[7, 8].map((value, n) => ({ tenantId, entityId: meters[0], key: 'reading', ts: Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 15, 12) + n * 3_600_000, value })),
    { tenantId, entityId: meters[0], key: 'reading', ts: Date.UTC(new Date().getUTCFullYear() - 1, 6, 1, 12), value: 40 },
    { tenantId, entityId: meters[0], key: 'reading', ts: Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1, 0, 30), value: 500 },
  ]);
  await writer.close();
});
afterAll(async () => { await t?.close(); });

async function createScheduler(input: Record<string, unknown>): Promise<number> {
  const created = await t.post('/create-scheduler', { input: { status: 'active', entity_ids: meters, ...input } }, admin);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.id;
}

/** Makes the scheduler due at `at` (as if that occurrence came while nothing ran it). */
const dueAt = (id: number, at: number) => t.db.systemQuery(sql`UPDATE schedulers SET next_run_at = ${new Date(at).toISOString()}::timestamptz WHERE id = ${id}`);

const runsOf = (id: number) => t.db.systemQuery<{ occurrence: string; result: string; message: string }>(sql`SELECT to_char(occurrence_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS occurrence, result, message
  FROM scheduler_runs WHERE scheduler_id = ${id} ORDER BY occurrence_at`);
const logsOf = (id: number) => t.db.systemQuery<{ type: string; message: string }>(sql`SELECT type, message FROM logs
  WHERE source = 'scheduler' AND message_data->>'source_id' = ${String(id)} ORDER BY id`);
const attributesOf = async (id: number) => (await t.db.systemQuery<{ attributes: Record<string, unknown> }>(sql`SELECT attributes FROM entities WHERE id = ${id}`))[0].attributes;

/** A new entity whose every write the database refuses as if the statement had taken too long; `mend` drops the refusal. */
async function refusingEntity(name: string): Promise<{ id: number; mend(): Promise<void> }> {
  const { ids: [id] } = await makeEntities(t, tenantId, name, 1);
  const trigger = `refuse_entity_${id}`;
  await t.db.systemQuery(sql.raw(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'canceling statement due to statement timeout' USING ERRCODE = 'query_canceled'; END $$`));
  await t.db.systemQuery(sql.raw(`CREATE TRIGGER ${trigger} BEFORE UPDATE ON entities FOR EACH ROW WHEN (OLD.id = ${id}) EXECUTE FUNCTION ${trigger}()`));
  return {
    id,
    async mend() {
      await t.db.systemQuery(sql.raw(`DROP TRIGGER IF EXISTS ${trigger} ON entities`));
      await t.db.systemQuery(sql.raw(`DROP FUNCTION IF EXISTS ${trigger}()`));
    },
  };
}


describe('a run', () => {
  it('writes each aggregation over last week into the target attribute of every entity with values; logs it; moves to the next run', async () => {
    const expected = { avg: 30, max: 60, min: 10, sum: 90, 'latest-value': 60 } as const;
    const ids: Record<string, number> = {};
    for (const aggregation of Object.keys(expected)) {
      ids[aggregation] = await createScheduler({
        name: `Load ${aggregation}`, definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation, key: 'load', time_slot: 'last-week', target_attribute: `load_${aggregation}` },
      });
      await dueAt(ids[aggregation], Date.now() - 60_000);
    }
    for (const id of Object.values(ids)) {
      await until(() => runsOf(id), (runs) => runs.length > 0);
      const scheduler = (await t.get('/scheduler-list', admin)).body.find((item: { id: number }) => item.id === id);
      expect(scheduler.result).toBe('ok');
      expect(Date.parse(scheduler.next_run_at)).toBeGreaterThan(Date.now()); // the next Monday 06:00
      expect(new Date(scheduler.next_run_at).getUTCDay()).toBe(1);
    }
    const [first, second] = [await attributesOf(meters[0]), await attributesOf(meters[1])];
    for (const [aggregation, value] of Object.entries(expected)) expect(first[`load_${aggregation}`], aggregation).toBe(value);
    expect(second).toMatchObject({ load_avg: 5, load_sum: 5, 'load_latest-value': 5 });
    expect((await logsOf(ids.avg)).map((log) => [log.type, log.message])).toEqual([
      ['informational', 'Load avg: wrote load_avg (avg of load over last-week) of 2 of 2 entities'],
    ]);
  });

  it('reads last month and last year as whole calendar periods', async () => {
    const month = await createScheduler({ name: 'Monthly reading', definition: { kind: 'periodic', expression: '0 6 1 * *', aggregation: 'sum', key: 'reading', time_slot: 'last-month', target_attribute: 'reading_last_month' } });
    const year = await createScheduler({ name: 'Yearly reading', definition: { kind: 'periodic', expression: '0 6 1 1 *', aggregation: 'max', key: 'reading', time_slot: 'last-year', target_attribute: 'reading_last_year' } });
    await dueAt(month, Date.now() - 60_000);
    await dueAt(year, Date.now() - 60_000);
    await until(() => runsOf(month), (runs) => runs.length > 0);
    await until(() => runsOf(year), (runs) => runs.length > 0);
    const attributes = await attributesOf(meters[0]);
    expect(attributes.reading_last_month).toBe(15); // 7 + 8; this month's 500 is outside
    expect(attributes.reading_last_year).toBe(40); // the whole year before this one (last month's 7 and 8 too when this is January)
  });

  it('a static value is written as it is; nothing to read is a "nok" run, logged as a warning', async () => {
    const fixed = await createScheduler({ name: 'Tariff', definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'static-value', value: 0.21, time_slot: 'last-week', target_attribute: 'tariff' } });
    const empty = await createScheduler({ name: 'Nothing', definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'sum', key: 'no_such_key', time_slot: 'last-month', target_attribute: 'nothing' } });
    await dueAt(fixed, Date.now() - 1_000);
    await dueAt(empty, Date.now() - 1_000);
    await until(() => logsOf(empty), (logs) => logs.length > 0);
    await until(() => logsOf(fixed), (logs) => logs.length > 0);
    expect((await attributesOf(meters[1])).tariff).toBe(0.21);
    expect((await runsOf(empty)).map((run) => run.result)).toEqual(['nok']);
    expect((await logsOf(empty))[0]).toEqual({ type: 'warning', message: 'Nothing: no no_such_key in last-month; nothing written' });
  });
});

describe('complex queries', () => {
  it("writes a complex query's answer over the scheduler's entities and time slot; a refused query is a nok run in SPEC §8's words", async () => {
    const query = JSON.stringify({ query: { bool: { filter: [{ term: { key: 'load' } }] } }, aggs: { total: { sum: { field: 'value' } } } });
    const summed = await createScheduler({ name: 'Load total', definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'complex-query', query, time_slot: 'last-week', target_attribute: 'load_total' } });
    const refused = await createScheduler({ name: 'Scripted', definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'complex-query', query: '{"query":{"script":{"source":"1"}}}', time_slot: 'last-week', target_attribute: 'never' } });
    await dueAt(summed, Date.now() - 60_000);
    await dueAt(refused, Date.now() - 60_000);
    await until(() => runsOf(summed), (runs) => runs.length > 0);
    await until(() => runsOf(refused), (runs) => runs.length > 0);
    // last week's points of both meters: 10 + 20 + 60 + 5 (this week's 1,000 is outside the slot)
    expect((await attributesOf(meters[0])).load_total).toBe(95);
    expect((await attributesOf(meters[1])).load_total).toBe(95);
    expect((await runsOf(refused)).map((run) => [run.result, run.message])).toEqual([
      ['nok', 'Scripted: Test of query ended with error = query.script is not supported'],
    ]);
    expect((await attributesOf(meters[0])).never).toBeUndefined();
  });
});

describe('exactly once', () => {
  it('two instances on one database run a due occurrence once', async () => {
    const other = await startTestApp({ db: t.db, engines: true, enginesEveryMs: ENGINE_EVERY_MS });
    try {
      const id = await createScheduler({ name: 'Twice?', definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'static-value', value: 1, time_slot: 'last-week', target_attribute: 'once' } });
      await dueAt(id, Date.now() - 1_000);
      await until(() => runsOf(id), (runs) => runs.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // both engines have had passes
      expect(await runsOf(id)).toHaveLength(1);
      expect(await logsOf(id)).toHaveLength(1);
    } finally {
      await other.app.close();
    }
  });

  it('an occurrence claimed by an instance that died runs once its claim lapses', async () => {
    const id = await createScheduler({ name: 'Orphaned', definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'static-value', value: 2, time_slot: 'last-week', target_attribute: 'orphaned' } });
    // claimed, never run: the instance holding it is gone
    await t.db.systemQuery(sql`UPDATE schedulers SET next_run_at = now() - interval '1 second', claimed_until = now() + interval '2 seconds' WHERE id = ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await runsOf(id)).toHaveLength(0);
    const runs = await until(() => runsOf(id), (found) => found.length > 0);
    expect(runs.map((run) => run.result)).toEqual(['ok']);
  });
});

describe('a run that keeps failing', () => {
  it('is tried three times, then given up with the reason in a log row of type error; the next occurrence runs as planned', async () => {
    const { id: broken, mend } = await refusingEntity('Broken meter');
    try {
      const id = await createScheduler({
        name: 'Stuck', entity_ids: [broken],
        definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'static-value', value: 4, time_slot: 'last-week', target_attribute: 'stuck' },
      });
      const occurrence = Date.now() - 1_000;
      await dueAt(id, occurrence);
      // two back-offs of 6 and 12 passes (200 ms here; 30 s and 60 s at the default 5 s)
      const runs = await until(() => runsOf(id), (found) => found.length > 0, 20_000);
      expect(runs).toEqual([{ occurrence: new Date(Math.floor(occurrence / 1_000) * 1_000).toISOString().replace('.000', ''), result: 'nok',
        message: 'Stuck: the run failed 3 times (it took longer than the database allows); it is not tried again' }]);
      const [log] = await logsOf(id);
      expect(log).toEqual({ type: 'error', message: runs[0].message });
      const [stuck] = await t.db.systemQuery<{ failed_attempts: number; last_failure: string | null; claimed_until: string | null; result: string; next_run_at: string }>(
        sql`SELECT failed_attempts, last_failure, claimed_until, result, next_run_at::text FROM schedulers WHERE id = ${id}`);
      expect(stuck).toMatchObject({ failed_attempts: 0, last_failure: null, claimed_until: null, result: 'nok' });
      expect(Date.parse(stuck.next_run_at)).toBeGreaterThan(Date.now());
      expect((await attributesOf(broken)).stuck).toBeUndefined();
      // the database is mended: the next occurrence runs at the first try
      await mend();
      await dueAt(id, Date.now() - 500);
      await until(() => runsOf(id), (found) => found.length > 1);
      expect((await runsOf(id)).map((run) => run.result)).toEqual(['nok', 'ok']);
      expect((await attributesOf(broken)).stuck).toBe(4);
    } finally {
      await mend();
    }
  });
});

describe('many due at once', () => {
  const staticValue = (value: number, target: string) => ({ kind: 'periodic', expression: '0 6 * * 1', aggregation: 'static-value', value, time_slot: 'last-week', target_attribute: target });
  /** Makes the schedulers due at once (one claim), `first` a minute before the others. */
  const dueTogether = (ids: number[], first?: number) => t.db.systemQuery(sql`UPDATE schedulers
    SET next_run_at = now() - CASE WHEN id = ${first ?? 0} THEN interval '2 minutes' ELSE interval '1 minute' END
    WHERE id = ANY(${`{${ids.join(',')}}`}::int[])`);

  it('run together, each once; of two writing one attribute the later one\'s value stays', async () => {
    const early = await createScheduler({ name: 'Early', entity_ids: [meters[0]], definition: staticValue(1, 'shared') });
    const late = await createScheduler({ name: 'Late', entity_ids: [meters[0]], definition: staticValue(2, 'shared') });
    const many: number[] = [];
    for (let i = 0; i < 30; i++) many.push(await createScheduler({ name: `Many ${i}`, definition: staticValue(i, `many_${i}`) }));
    const averages = await createScheduler({ name: 'Load avg again', definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'avg', key: 'load', time_slot: 'last-week', target_attribute: 'load_avg_again' } });
    const all = [early, late, averages, ...many];
    await dueTogether(all, early);
    for (const id of all) await until(() => runsOf(id), (runs) => runs.length > 0);
    const [attributes, second] = [await attributesOf(meters[0]), await attributesOf(meters[1])];
    expect(attributes.shared).toBe(2);
    for (let i = 0; i < 30; i++) expect(attributes[`many_${i}`]).toBe(i);
    expect([attributes.load_avg_again, second.load_avg_again]).toEqual([30, 5]);
    for (const id of all) {
      expect((await runsOf(id)).map((run) => run.result)).toEqual(['ok']);
      expect(await logsOf(id)).toHaveLength(1);
    }
  });

  it('one that fails holds back none of the others: it alone is rolled back and tried again after its back-off', async () => {
    const { id: refusing, mend } = await refusingEntity('Refusing meter');
    try {
      const refused = await createScheduler({ name: 'Refused', entity_ids: [refusing], definition: staticValue(9, 'refused') });
      const beside: number[] = [];
      for (let i = 0; i < 5; i++) beside.push(await createScheduler({ name: `Beside ${i}`, definition: staticValue(i, `beside_${i}`) }));
      await dueTogether([refused, ...beside]);
      for (const id of beside) await until(() => runsOf(id), (runs) => runs.length > 0);
      for (const id of beside) expect((await runsOf(id)).map((run) => run.result)).toEqual(['ok']);
      expect((await attributesOf(meters[0])).beside_4).toBe(4);
      const [state] = await t.db.systemQuery<{ failed_attempts: number }>(sql`SELECT failed_attempts FROM schedulers WHERE id = ${refused}`);
      expect(state.failed_attempts).toBeGreaterThanOrEqual(1);
      expect((await attributesOf(refusing)).refused).toBeUndefined();
      await t.db.systemQuery(sql`UPDATE schedulers SET status = 'inactive' WHERE id = ${refused}`);
    } finally {
      await mend();
    }
  });
});

describe('after downtime', () => {
  it('runs each occurrence missed in the last day once, skips older ones with one log row', async () => {
    const hour = 3_600_000;
    const lastHour = Math.floor(Date.now() / hour) * hour;
    const id = await createScheduler({ name: 'Hourly', definition: { kind: 'periodic', expression: '0 * * * *', aggregation: 'static-value', value: 3, time_slot: 'last-week', target_attribute: 'hourly' } });
    await dueAt(id, lastHour - 30 * hour); // down for 30 hours
    const runs = await until(() => runsOf(id), (found) => found.length >= 25, 20_000);
    const skipped = runs.filter((run) => run.result === 'skipped');
    const ran = runs.filter((run) => run.result === 'ok');
    expect(skipped).toHaveLength(1);
    expect(skipped[0].message).toMatch(/^Hourly: \d+ run\(s\) missed more than a day ago were skipped/);
    // every hour of the last day, once
    expect(ran.length).toBeGreaterThanOrEqual(24);
    expect(new Set(ran.map((run) => run.occurrence)).size).toBe(ran.length);
    for (const run of ran) expect(Date.parse(run.occurrence)).toBeGreaterThanOrEqual(Date.now() - 24 * hour - 60_000);
    const scheduler = (await t.get('/scheduler-list', admin)).body.find((item: { id: number }) => item.id === id);
    expect(Date.parse(scheduler.next_run_at)).toBeGreaterThan(Date.now());
  });
});

describe('tenants', () => {
  it("another tenant sees none of a tenant's runs", async () => {
    const [facility] = await t.db.systemQuery<{ id: string }>(sql`SELECT id FROM tenants WHERE name = 'Demo Facility'`);
    const count = sql`SELECT count(*)::int AS count FROM scheduler_runs`;
    expect((await t.db.tenantQuery<{ count: number }>(tenantId, count))[0].count).toBeGreaterThan(0);
    expect((await t.db.tenantQuery<{ count: number }>(facility.id, count))[0].count).toBe(0);
    const list = (await t.get('/scheduler-list', (await t.login('admin@demo.facility')).access_token)).body as { name: string }[];
    expect(list.map((item) => item.name)).not.toContain('Tariff');
  });
});
