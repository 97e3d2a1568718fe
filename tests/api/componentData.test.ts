// A public-API board's component list carries its KPIs' data, within bounds: sixty components
// naming one KPI of thirty days of quarter hours (the attack that once exhausted the heap with three
// readers) answer each KPI once and no more data than one answer may carry, the rest saying why in
// their place; a smaller page carries theirs; many readers at once are all answered; a component
// whose data cannot be computed never fails the list. And any list answer is bounded in bytes.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryPoint } from '../../server/telemetry/telemetryPoint.ts';
import { MAX_ANSWER_CHARS } from '../../server/errors.ts';
import { MAX_DEFINITION_CHARACTERS } from '../../server/resources/rules/componentRules.ts';
import { DATA_OMITTED, MAX_COMPONENT_DATA_BYTES } from '../../server/telemetry/kpiComponentData.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let boardId: number;
let kpiId: number;
let lampCount: number;

const QUARTER_HOUR = 15 * 60_000;
const COMPONENTS = 60;

const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
  const answer = await t.post('/graphql', { query, variables }, admin);
  expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
  return answer.body.data;
};

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  const lamps = await t.db.systemQuery<{ id: number; tenant_id: string; type: number }>(sql`
    SELECT e.id, e.tenant_id, e.entity_type_id AS type FROM entities e JOIN entity_types et ON et.id = e.entity_type_id JOIN tenants tn ON tn.id = e.tenant_id
    WHERE et.category = 'lighting' AND tn.name = 'Demo City' ORDER BY e.id`);
  lampCount = lamps.length;
  const end = Math.floor(Date.now() / QUARTER_HOUR) * QUARTER_HOUR;
  const points: TelemetryPoint[] = [];
  for (const lamp of lamps) for (let ts = end - 30 * 24 * 3_600_000; ts < end; ts += QUARTER_HOUR) points.push({ tenantId: lamp.tenant_id, entityId: lamp.id, key: 'board_power', ts, value: (ts / QUARTER_HOUR) % 97 });
  await t.app.ingestion.writer.write(points);
  kpiId = Number((await graphql('mutation($query: JSON, $definition: JSON) { create_kpi(name: {en: "Every lamp, every quarter hour"}, query: $query, definition: $definition) { id } }', {
    query: [{ key: 'board_power', aggregation: 'avg', entity_type_ids: [lamps[0].type] }], definition: { chart: 'line', time_interval: '15m', time_range: '30d', series: 'per_entity' },
  })).create_kpi.id);
  boardId = Number((await graphql('mutation { public_api_create_board(name: { en: "Sixty charts" }) { id } }')).public_api_create_board.id);
  for (let n = 0; n < COMPONENTS; n++) {
    await graphql('mutation($b: [Int!], $d: JSON) { public_api_create_component(name: "Chart", type: "kpi", definition: $d, board_ids: $b) { id } }', { b: [boardId], d: { kpi_id: kpiId } });
  }
});
afterAll(() => t?.close());

type Component = { id: number; data: { series: { data: unknown[] }[] } | null; data_error: { code: string; message: string } | null };

describe('the component list of a public-API board', () => {
  it('carries one KPI\'s data no further than its byte budget, and says so in the components past it', async () => {
    const answer = await t.send({ path: `/public-api-component-list?board_id=${boardId}`, token: admin });
    expect(answer.status).toBe(200);
    const components = answer.body as Component[];
    expect(components).toHaveLength(COMPONENTS);
    const carrying = components.filter((component) => component.data);
    // one KPI's data is more than a megabyte: a few components carry it, not sixty
    expect(carrying.length).toBeGreaterThan(0);
    expect(carrying.length).toBeLessThan(10);
    expect(carrying[0].data!.series).toHaveLength(lampCount);
    expect(carrying[0].data!.series[0].data.length).toBeGreaterThan(2_800);
    expect(JSON.stringify(components).length).toBeLessThan(MAX_COMPONENT_DATA_BYTES + 100_000);
    // the first ones carry it, the rest say why they do not
    expect(components.slice(0, carrying.length)).toEqual(carrying);
    for (const component of components.slice(carrying.length)) {
      expect(component.data).toBeNull();
      expect(component.data_error).toEqual({ code: DATA_OMITTED, message: expect.stringContaining('per_page') });
    }
    // a page of one past them carries its data
    const last = (await t.get(`/public-api-component-list?board_id=${boardId}&page=${COMPONENTS}&per_page=1`, admin)).body as Component[];
    expect(last).toHaveLength(1);
    expect(last[0]).toMatchObject({ id: components.at(-1)!.id, data_error: null });
    expect(last[0].data!.series).toHaveLength(lampCount);
  });

  it('answers forty readers at once, each within the budget, and serves a light request meanwhile', async () => {
    const readers = Array.from({ length: 40 }, () => t.send({ path: `/public-api-component-list?board_id=${boardId}`, token: admin }));
    expect((await t.get('/tenant', admin)).status).toBe(200);
    const answers = await Promise.all(readers);
    // they wait their turn (two compute at once), none is refused
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    for (const answer of answers) expect(JSON.stringify(answer.body).length).toBeLessThan(MAX_COMPONENT_DATA_BYTES + 100_000);
  });

  it('a component whose KPI cannot answer says why in its place; the others keep their data', async () => {
    // a minute a point over thirty days: more buckets than one answer may have
    const tooFine = Number((await graphql('mutation($query: JSON, $definition: JSON) { create_kpi(name: {en: "Every minute of a month"}, query: $query, definition: $definition) { id } }', {
      query: [{ key: 'board_power', aggregation: 'avg' }], definition: { chart: 'line', time_interval: '1m', time_range: '30d' },
    })).create_kpi.id);
    const board = Number((await graphql('mutation { public_api_create_board(name: { en: "Mixed" }) { id } }')).public_api_create_board.id);
    for (const kpi of [tooFine, kpiId]) {
      await graphql('mutation($b: [Int!], $d: JSON) { public_api_create_component(name: "Chart", type: "kpi", definition: $d, board_ids: $b) { id } }', { b: [board], d: { kpi_id: kpi } });
    }
    const answer = await t.get(`/public-api-component-list?board_id=${board}`, admin);
    expect(answer.status).toBe(200);
    const [refused, full] = answer.body as Component[];
    expect(refused).toMatchObject({ query: [{ key: 'board_power' }], data: null, data_error: { code: 'BAD_KPI_DATA', message: 'Bad kpi_data' } });
    expect(full.data_error).toBeNull();
    expect(full.data!.series).toHaveLength(lampCount);

    // its KPI gone: not among the KPIs read together, asked alone, and said so in its place
    await graphql('mutation($id: ID!) { delete_kpi(id: $id) { id } }', { id: tooFine });
    const [gone, still] = (await t.get(`/public-api-component-list?board_id=${board}`, admin)).body as Component[];
    expect(gone).toMatchObject({ query: null, data: null, data_error: { code: 'NOT_FOUND' } });
    expect(still.data!.series).toHaveLength(lampCount);
  });
});

describe('any list answer', () => {
  it('is bounded in bytes: a board of components at their largest answers 400 ANSWER_TOO_LARGE whole, and in pages', async () => {
    const board = Number((await graphql('mutation { create_board(name: { en: "Long texts" }) { id } }')).create_board.id);
    // a definition's keys besides the type's own are free, up to MAX_DEFINITION_CHARACTERS in all
    const notes = 'x'.repeat(MAX_DEFINITION_CHARACTERS - 200);
    const count = Math.ceil(MAX_ANSWER_CHARS / MAX_DEFINITION_CHARACTERS) + 2;
    for (let n = 0; n < count; n++) {
      await graphql('mutation($b: [Int!], $d: JSON) { create_component(name: "Text", type: "richtext", definition: $d, board_ids: $b) { id } }', { b: [board], d: { html: '<p>Long notes</p>', notes } });
    }
    const whole = await t.get(`/component-list?board_id=${board}`, admin);
    expect(whole.status).toBe(400);
    expect(whole.body.errors[0]).toMatchObject({ code: 'ANSWER_TOO_LARGE', field: 'per_page', params: { limit: MAX_ANSWER_CHARS } });
    const viaGraphql = await t.post('/graphql', { query: `{ component_list(board_id: ${board}) { id } }` }, admin);
    expect(viaGraphql.body.errors[0].extensions.code).toBe('ANSWER_TOO_LARGE');
    // in pages it all comes
    let read = 0;
    for (let page = 1; read < count; page++) {
      const answer = await t.get(`/component-list?board_id=${board}&page=${page}&per_page=20`, admin);
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBeGreaterThan(0);
      read += answer.body.length;
    }
    expect(read).toBe(count);
  });
});
