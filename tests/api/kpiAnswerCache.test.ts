// GET /kpi-data answers shared by callers alike (server/cache/kpiAnswerCache.ts), as clients see
// them: two hundred screens of one user asking at once are one computation and no 429; one still
// asked for near its end is computed again while the kept one answers; another
// tenant and a user without the permission get their own refusals whatever is kept; a KPI edit,
// a maintenance window and a permission change show at once; new points within the KPI's refresh
// interval; across random steps of all of those, the kept answer is what an uncached read (POST
// /kpi-preview of the same KPI) answers. Polls of a moving range reuse closed buckets
// (server/cache/closedBuckets.ts) until a point stored before their end drops them; buckets of
// data retention may drop are never reused.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.ts';
import { MIN_LEAD_MS } from '../../server/cache/kpiAnswerCache.ts';
import { users } from '../../server/db/schema.ts';
import type { TelemetryPoint } from '../../server/telemetry/telemetryPoint.ts';
import { telemetryWriter } from '../../server/telemetry/telemetryWriter.ts';
import { makeEntities } from '../support/testEntities.ts';
import { PASSWORD, startTestApp, type TestApp } from './harness.ts';

const HOUR = 3_600_000;
/** The KPI's refresh interval: how long its answer is reused. */
const REFRESH_MS = 10_000;
const FROM = Date.UTC(2026, 4, 1);
const RANGE = { from: new Date(FROM).toISOString(), to: new Date(FROM + 24 * HOUR).toISOString() };
let now = Date.now();
let t: TestApp;
let admin: string;
let operator: string;
let city: string;
let meters: number[];
let kpiId: number;
let query: { key: string; aggregation: string; entity_ids: number[] }[];
let definition: Record<string, unknown>;

/** Points stored the way devices' are: through the app's telemetry writer. */
async function write(points: TelemetryPoint[]) {
  await t.app.ingestion.writer.write(points);
}

async function saveKpi() {
  const mutation = kpiId === undefined
    ? 'mutation($query: JSON, $definition: JSON) { saved: create_kpi(name: {en: "Control room"}, query: $query, definition: $definition) { id } }'
    : `mutation($query: JSON, $definition: JSON) { saved: update_kpi(id: ${kpiId}, query: $query, definition: $definition) { id } }`;
  const answer = await t.send({ method: 'POST', path: '/graphql', token: admin, body: { query: mutation, variables: { query, definition } } });
  expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
  kpiId = Number(answer.body.data.saved.id);
}

/** The answer through the cache, and the same KPI read without it (the builder's preview). */
async function keptAndFresh(token = operator) {
  const kept = await t.get(`/kpi-data?id=${kpiId}`, token);
  const fresh = await t.post('/kpi-preview', { query, definition }, admin);
  expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
  return { kept, fresh: { id: kpiId, ...fresh.body } };
}

beforeAll(async () => {
  t = await startTestApp({ kpiAnswersNow: () => now });
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  city = (await t.get('/tenant', admin)).body.id;
  ({ ids: meters } = await makeEntities(t, city, 'Control room meter', 3));
  await write(meters.flatMap((entityId, m) => Array.from({ length: 24 }, (_v, h) => ({ tenantId: city, entityId, key: 'room_load', ts: FROM + h * HOUR + 60_000, value: m * 100 + h }))));
  query = [{ key: 'room_load', aggregation: 'sum', entity_ids: meters }];
  definition = { chart: 'line', time_interval: '1h', date_range: RANGE, series: 'per_entity', refresh_interval: REFRESH_MS / 1_000 };
  await saveKpi();
});
afterAll(() => t?.close());

describe('one answer for everyone alike', () => {
  it('two hundred screens of one user asking at once: all answered, no 429, one computation', async () => {
    now += REFRESH_MS; // nothing kept from before
    const statements = vi.spyOn(t.db, 'tenantQuery');
    try {
      const answers = await Promise.all(Array.from({ length: 200 }, () => t.get(`/kpi-data?id=${kpiId}`, operator)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(200));
      expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
      expect(answers[0].body.series).toHaveLength(3);
      // the entities read once and the series once (each screen computing its own: 400)
      expect(statements.mock.calls.length).toBeLessThanOrEqual(3);
      // the admin sees the same answer
      expect((await t.get(`/kpi-data?id=${kpiId}`, admin)).body).toEqual(answers[0].body);
    } finally {
      statements.mockRestore();
    }
  });

  it('another tenant and a user without the permission get their own refusals, whatever is kept', async () => {
    // kept for the city's admin: the facility's admin sees the same of KPIs, in another tenant
    expect((await t.get(`/kpi-data?id=${kpiId}`, admin)).status).toBe(200);
    const facility = (await t.login('admin@demo.facility')).access_token;
    const other = await t.get(`/kpi-data?id=${kpiId}`, facility);
    expect(other.status).toBe(404);
    expect(other.body.errors[0].code).toBe('NO_KPI_DATA');
    await t.db.tenantTx(city, async (tx) => {
      await tx.insert(users).values({ tenantId: city, username: 'Logs only', email: 'logs-only@demo.city', passwordHash: await hashPassword(PASSWORD), modules: ['logs'] });
    });
    const logsOnly = (await t.login('logs-only@demo.city')).access_token;
    const refused = await t.get(`/kpi-data?id=${kpiId}`, logsOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('FORBIDDEN');
  });
});

describe('an answer still asked for near its end', () => {
  it('is computed again meanwhile: the screen asking then gets the kept one at once, the next after the end the new one, computed once', async () => {
    now += REFRESH_MS;
    const kept = (await t.get(`/kpi-data?id=${kpiId}`, operator)).body;
    await write([{ tenantId: city, entityId: meters[1], key: 'room_load', ts: FROM + 7 * HOUR + 120_000, value: 7_777 }]);
    const statements = vi.spyOn(t.db, 'tenantQuery');
    try {
      now += REFRESH_MS - MIN_LEAD_MS; // within the lead of its end
      expect((await t.get(`/kpi-data?id=${kpiId}`, operator)).body).toEqual(kept);
      await expect.poll(() => statements.mock.calls.length).toBeGreaterThan(0); // the next one is being computed
      now += MIN_LEAD_MS; // its end: every screen gets the new answer
      const next = await Promise.all(Array.from({ length: 20 }, () => t.get(`/kpi-data?id=${kpiId}`, operator)));
      expect(new Set(next.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
      expect(statements.mock.calls.length).toBeLessThanOrEqual(3); // one computation for all of them
      statements.mockRestore();
      expect(next[0].body).not.toEqual(kept);
      const fresh = await t.post('/kpi-preview', { query, definition }, admin);
      expect(next[0].body).toEqual({ id: kpiId, ...fresh.body }); // with the new point
    } finally {
      statements.mockRestore();
    }
  });
});

describe('what changes the answer', () => {
  it('a KPI edit and a maintenance window show at once; new points within the refresh interval', async () => {
    const before = (await t.get(`/kpi-data?id=${kpiId}`, operator)).body;
    query = [{ ...query[0], aggregation: 'max' }];
    await saveKpi();
    let { kept, fresh } = await keptAndFresh();
    expect(kept.body).toEqual(fresh);
    expect(kept.body).not.toEqual(before);

    const window = await t.post('/create-maintenance-window', { input: {
      name: 'Meter swap', mode: 'device-maintenance', scope: 'tenant',
      schedule: { kind: 'once', starts_at: new Date(Date.now() - 60_000).toISOString(), ends_at: new Date(Date.now() + HOUR).toISOString() },
    } }, admin);
    expect(window.status, JSON.stringify(window.body)).toBe(200);
    ({ kept, fresh } = await keptAndFresh());
    expect(kept.body).toEqual(fresh);
    expect(kept.body.series).toHaveLength(0); // every meter is under maintenance
    expect((await t.post('/delete-maintenance-window', { id: window.body.id }, admin)).status).toBe(200);
    ({ kept } = await keptAndFresh());
    expect(kept.body.series).toHaveLength(3);

    // a new point: the kept answer is at most the refresh interval late
    const stale = kept.body;
    await write([{ tenantId: city, entityId: meters[0], key: 'room_load', ts: FROM + 5 * HOUR + 120_000, value: 9_999 }]);
    expect((await t.get(`/kpi-data?id=${kpiId}`, operator)).body).toEqual(stale);
    now += REFRESH_MS;
    ({ kept, fresh } = await keptAndFresh());
    expect(kept.body).toEqual(fresh);
    expect(kept.body.series[0].data.find((point: { value: number }) => point.value === 9_999)).toBeDefined();
  });

  it('across random edits, maintenance, permission changes and new points, the kept answer is the uncached one', async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const aggregations = ['sum', 'avg', 'max', 'min', 'value_count', 'latest-value'];
    let windowId: number | undefined;
    for (let step = 0; step < 30; step++) {
      const action = random(5);
      if (action === 0) {
        query = [{ ...query[0], aggregation: aggregations[random(aggregations.length)], entity_ids: meters.slice(0, 1 + random(3)) }];
        definition = { ...definition, time_interval: ['1h', '15m', '1d'][random(3)], series: random(2) ? 'per_entity' : 'aggregated' };
        await saveKpi();
      } else if (action === 1) {
        await write([{ tenantId: city, entityId: meters[random(3)], key: 'room_load', ts: FROM + random(24 * 60) * 60_000 + random(60) * 1_000 + 1, value: random(1_000) }]);
        now += REFRESH_MS;
      } else if (action === 2) {
        if (windowId === undefined) {
          const window = await t.post('/create-maintenance-window', { input: {
            name: `Swap ${step}`, mode: 'device-maintenance', scope: 'tenant',
            schedule: { kind: 'once', starts_at: new Date(Date.now() - 60_000).toISOString(), ends_at: new Date(Date.now() + HOUR).toISOString() },
          } }, admin);
          windowId = window.body.id;
        } else {
          await t.post('/delete-maintenance-window', { id: windowId }, admin);
          windowId = undefined;
        }
      } else if (action === 3) {
        // the operator loses the dashboards and gets them back: refused meanwhile, then the same answer as anyone
        const modules = await t.db.systemQuery<{ modules: string[] }>(sql`SELECT modules FROM users WHERE email = 'operator@demo.city'`);
        await t.db.systemQuery(sql`UPDATE users SET modules = '{logs}' WHERE email = 'operator@demo.city'`);
        const without = (await t.login('operator@demo.city')).access_token;
        expect((await t.get(`/kpi-data?id=${kpiId}`, without)).status, `step ${step}`).toBe(403);
        await t.db.systemQuery(sql`UPDATE users SET modules = ${`{${modules[0].modules.join(',')}}`}::text[] WHERE email = 'operator@demo.city'`);
        operator = (await t.login('operator@demo.city')).access_token;
      }
      const { kept, fresh } = await keptAndFresh(random(2) ? operator : admin);
      expect(kept.status, `step ${step}`).toBe(200);
      expect(kept.body, `step ${step}`).toEqual(fresh);
    }
    if (windowId !== undefined) await t.post('/delete-maintenance-window', { id: windowId }, admin);
  });
});

describe('polls of a moving range', () => {
  it('reuse the closed buckets and read the open ones; a late point, and in the end every point, reaches its bucket', async () => {
    const since = now - 30 * HOUR;
    await write(meters.flatMap((entityId, m) => Array.from({ length: 30 }, (_v, h) => ({ tenantId: city, entityId, key: 'moving_load', ts: since + h * HOUR + 60_000, value: m * 100 + h }))));
    const moving = { query: [{ key: 'moving_load', aggregation: 'sum', entity_ids: meters }], definition: { chart: 'line', time_interval: '1h', time_range: '24h', refresh_interval: REFRESH_MS / 1_000 } };
    const created = await t.send({ method: 'POST', path: '/graphql', token: admin, body: {
      query: 'mutation($query: JSON, $definition: JSON) { create_kpi(name: {en: "Moving"}, query: $query, definition: $definition) { id } }', variables: moving,
    } });
    const url = `/kpi-data?id=${created.body.data.create_kpi.id}`;
    const keptAndUncached = async () => ({ kept: (await t.get(url, operator)).body, uncached: (await t.post('/kpi-preview', moving, admin)).body });
    const hourOf = (answer: { series: { data: { ts: string; value: number }[] }[] }, at: number) =>
      answer.series[0].data.find((point) => Date.parse(point.ts) === at - (at % HOUR))?.value;
    let { kept, uncached } = await keptAndUncached();
    expect({ ...uncached, id: kept.id }).toEqual(kept);

    // a point stored where the app does not hear of it (no client can): the closed hour it falls in
    // is read again only once the kept buckets have aged out; the open hour is read at each refresh
    const closedHour = Math.floor((since + 20 * HOUR) / HOUR) * HOUR;
    const before = hourOf(kept, closedHour)!;
    const unheard = telemetryWriter(t.db);
    await unheard.write([{ tenantId: city, entityId: meters[0], key: 'moving_load', ts: closedHour + HOUR / 2, value: 5_000 }]);
    await unheard.close();
    now += REFRESH_MS;
    ({ kept, uncached } = await keptAndUncached());
    expect(hourOf(kept, closedHour)).toBe(before);
    expect(hourOf(uncached, closedHour)).toBe(before + 5_000);
    const open = now - 10_000;
    const openBefore = hourOf(kept, open) ?? 0;
    await write([{ tenantId: city, entityId: meters[1], key: 'moving_load', ts: open, value: 7 }]); // in the open hour
    now += REFRESH_MS;
    ({ kept, uncached } = await keptAndUncached());
    expect(hourOf(kept, open)).toBe(openBefore + 7);
    expect(hourOf(kept, open)).toBe(hourOf(uncached, open));

    // a late point through the writer drops what it reaches: the next refresh reads it, and the unheard one
    await write([{ tenantId: city, entityId: meters[2], key: 'moving_load', ts: closedHour + HOUR / 2 + 60_000, value: 300 }]);
    now += REFRESH_MS;
    ({ kept, uncached } = await keptAndUncached());
    expect(hourOf(kept, closedHour)).toBe(before + 5_300);
    expect({ ...uncached, id: kept.id }).toEqual(kept);

    // the range moves on over hours: reused and read parts still make the uncached answer
    for (let step = 0; step < 4; step++) {
      now += HOUR / 2;
      await write(meters.map((entityId, m) => ({ tenantId: city, entityId, key: 'moving_load', ts: now - 60_000, value: m + step })));
      ({ kept, uncached } = await keptAndUncached());
      expect({ ...uncached, id: kept.id }, `step ${step}`).toEqual(kept);
    }
  });
});

describe('retention', () => {
  it('buckets of data retention may drop are read each time, never reused', async () => {
    const retained = await startTestApp({ telemetryRetentionDays: 30, kpiAnswersNow: () => now });
    try {
      const token = (await retained.login('admin@demo.city')).access_token;
      const tenant = (await retained.get('/tenant', token)).body.id;
      const { ids: [meter] } = await makeEntities(retained, tenant, 'Old meter', 1);
      const day = now - 40 * 24 * HOUR - (now % HOUR);
      const unheard = telemetryWriter(retained.db);
      const store = async (value: number) => {
        await unheard.write([{ tenantId: tenant, entityId: meter, key: 'old_load', ts: day + value * 60_000, value }]);
      };
      await store(1);
      const created = await retained.send({ method: 'POST', path: '/graphql', token, body: {
        query: 'mutation($query: JSON, $definition: JSON) { create_kpi(name: {en: "Old"}, query: $query, definition: $definition) { id } }',
        variables: { query: [{ key: 'old_load', aggregation: 'sum', entity_ids: [meter] }], definition: { time_interval: '1d', date_range: { from: new Date(day - 24 * HOUR).toISOString(), to: new Date(day + 24 * HOUR).toISOString() } } },
      } });
      const total = async () => (await retained.get(`/kpi-data?id=${created.body.data.create_kpi.id}`, token)).body.series[0].data.reduce((sum: number, point: { value: number }) => sum + point.value, 0);
      expect(await total()).toBe(1);
      await store(2); // unheard, as a dropped month would be
      now += 60_000; // the KPI's refresh interval (its default)
      expect(await total()).toBe(3);
      await unheard.close();
    } finally {
      await retained.close();
    }
  });
});
