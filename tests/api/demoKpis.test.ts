// The demo's KPIs (server/seed/demoKpis.ts) on a freshly seeded database, for both tenants: every
// one draws something from the first start's history, is a KPI the KPI rules accept as it is
// (the colour mapping of its gauge too), is named in every interface language and belongs to a
// group; each demo administrator starts with a preset listing them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from '../../src/shared/i18n/languages.ts';
import type { Kpi } from '../../src/schemas/kpi.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
const tokens: Record<string, string> = {};
const ADMINS = ['admin@demo.city', 'admin@demo.facility'];

beforeAll(async () => {
  t = await startTestApp();
  for (const email of [...ADMINS, 'operator@demo.city']) tokens[email] = (await t.login(email)).access_token;
});
afterAll(async () => { await t?.close(); });

type SeededKpi = Kpi & { id: number; group_ids: number[] };
const kpisOf = async (email: string) => ((await t.get('/kpi-list', tokens[email])).body as SeededKpi[]).sort((a, b) => a.id - b.id);
const CHARTS = ['line', 'line', 'stacked-bar', 'gauge', 'donut', 'data-table'];

describe.each(ADMINS)('the demo KPIs of %s', (email) => {
  it('one of each chart the dashboard shows, named in every language, in a category and a group', async () => {
    const seeded = await kpisOf(email);
    expect(seeded.map((kpi) => kpi.definition.chart)).toEqual(CHARTS);
    for (const kpi of seeded) {
      expect(Object.keys(kpi.name).sort(), kpi.name.en).toEqual([...SUPPORTED_LANGUAGES].sort());
      expect(kpi.category, kpi.name.en).toBeTruthy();
      expect(kpi.group_ids.length, kpi.name.en).toBeGreaterThan(0);
    }
    const [temperature, power, energy, gauge, parking, table] = seeded;
    expect(temperature.definition).toMatchObject({ time_range: '24h', time_interval: '1h' });
    expect(power.definition.compare).toEqual({ compare_shift: 'days', compare_by: 1 });
    expect(energy.definition).toMatchObject({ time_range: '30d', time_interval: '1d' });
    expect(energy.query.every((item) => item.aggregation === 'sum' && item.label?.startsWith('Zone '))).toBe(true);
    expect(gauge.definition.colour_mapping?.at(-1)?.to).toBe(gauge.definition.max);
    expect(gauge.definition.out_of_bounds_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(parking.definition.series).toBe('per_entity');
    expect(parking.query[0].aggregation).toBe('latest-value');
    expect(table.definition.page_size).toBe(10);
  });

  it('every one answers GET /kpi-data with at least one series that has points', async () => {
    for (const kpi of await kpisOf(email)) {
      const answer = await t.get(`/kpi-data?id=${kpi.id}&timezone=Europe/Bratislava`, tokens[email]);
      expect(answer.status, `${kpi.name.en}: ${JSON.stringify(answer.body)}`).toBe(200);
      const drawn = (answer.body.series as { data: unknown[] }[]).filter((series) => series.data.length > 0);
      expect(drawn.length, kpi.name.en).toBeGreaterThan(0);
    }
  });

  it('every one is a KPI its own rules accept: saved back unchanged, it answers 200', async () => {
    for (const kpi of await kpisOf(email)) {
      const saved = await t.send({
        method: 'POST', path: '/graphql', token: tokens[email],
        body: { query: 'mutation ($id: ID!, $definition: JSON, $query: JSON) { update_kpi(id: $id, definition: $definition, query: $query) { id } }', variables: { id: kpi.id, definition: kpi.definition, query: kpi.query } },
      });
      expect(saved.body.errors, kpi.name.en).toBeUndefined();
    }
  });

  it('the administrator starts with a preset of them: the line charts across the dashboard, the others half of it', async () => {
    const seeded = await kpisOf(email);
    const presets = (await t.get('/kpi-preset-list', tokens[email])).body;
    expect(presets).toHaveLength(1);
    expect(presets[0]).toMatchObject({ module: 'factory-dashboard' });
    expect(presets[0].items).toEqual(seeded.map((kpi) => ({ kpi_id: kpi.id, width: kpi.definition.chart === 'line' ? 24 : 12 })));
  });
});

it('the operator starts without a preset: only the administrators get one', async () => {
  expect((await t.get('/kpi-preset-list', tokens['operator@demo.city'])).body).toEqual([]);
});
