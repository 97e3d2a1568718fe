// A KPI's colour mapping over the API (SPEC §5): create_kpi, update_kpi and the preview door
// (POST /kpi-preview) refuse each bad mapping with 400, the same code, SPEC's words and the field
// at fault; a good one is stored and read back as sent; another tenant can neither read nor change
// it, and the operator (read-only) cannot create one. KPIs have no REST write doors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facilityAdmin: string;
let storedId: number;

const query = [{ key: 'co2', aggregation: 'avg' }];
const range = (from: number | undefined, to: number | undefined, color = '#00ff00', extra: Record<string, unknown> = {}) =>
  ({ ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }), color, property: 'co2', measure: 'ppm', label: `${from}–${to}`, ...extra });
const good = {
  chart: 'bar',
  colour_mapping: [range(0, 800, '#00aa00'), range(800, 1200, '#ffaa00'), range(1200, 5000, '#ff0000'), { ...range(0, 50, '#0000ff'), property: 'power', measure: 'W' }],
  out_of_bounds_color: '#999999',
};

interface Refusal { code: string; message: string; field: string }

/** What each door answers: status and its first error as { code, message, field }. */
async function createKpi(token: string, definition: unknown) {
  const answer = await t.send({
    method: 'POST', path: '/graphql', token,
    body: { query: 'mutation($query: JSON, $definition: JSON) { create_kpi(name: {en: "Air"}, query: $query, definition: $definition) { id definition } }', variables: { query, definition } },
  });
  return { status: answer.status, body: answer.body, error: graphqlError(answer.body) };
}
async function updateKpi(token: string, id: number, definition: unknown) {
  const answer = await t.send({
    method: 'POST', path: '/graphql', token,
    body: { query: 'mutation($id: ID!, $definition: JSON) { update_kpi(id: $id, definition: $definition) { id definition } }', variables: { id, definition } },
  });
  return { status: answer.status, body: answer.body, error: graphqlError(answer.body) };
}
async function readKpi(token: string, id: number) {
  const answer = await t.send({ method: 'POST', path: '/graphql', token, body: { query: 'query($id: ID!) { kpi(id: $id) { id definition } }', variables: { id } } });
  return { status: answer.status, body: answer.body, error: graphqlError(answer.body) };
}
async function previewKpi(token: string, definition: unknown) {
  const answer = await t.post('/kpi-preview', { query, definition }, token);
  const first = answer.body.errors?.[0];
  return { status: answer.status, body: answer.body, error: first && { code: first.code, message: first.message, field: first.field } };
}
const graphqlError = (body: any): Refusal | undefined => {
  const first = body.errors?.[0];
  return first && { code: first.extensions?.code, message: first.message, field: first.extensions?.field };
};

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facilityAdmin = (await t.login('admin@demo.facility')).access_token;
  const created = await createKpi(admin, good);
  expect(created.error).toBeUndefined();
  storedId = Number(created.body.data.create_kpi.id);
});
afterAll(async () => { await t?.close(); });

const NOT_VALID = 'Conditions that you entered are not valid';
const cases: { name: string; definition: Record<string, unknown>; refusal: Refusal }[] = [
  {
    name: 'overlapping ranges of one property',
    definition: { ...good, colour_mapping: [range(0, 800), range(700, 1200)] },
    refusal: { code: 'KPI_CONDITIONS_INVALID', message: NOT_VALID, field: 'definition.colour_mapping.1.from' },
  },
  {
    name: 'a range running backwards',
    definition: { ...good, colour_mapping: [range(800, 100)] },
    refusal: { code: 'KPI_CONDITIONS_INVALID', message: NOT_VALID, field: 'definition.colour_mapping.0.to' },
  },
  {
    name: 'an empty range (from = to)',
    definition: { ...good, colour_mapping: [range(5, 5)] },
    refusal: { code: 'KPI_CONDITIONS_INVALID', message: NOT_VALID, field: 'definition.colour_mapping.0.to' },
  },
  {
    name: 'a range without its lower bound',
    definition: { ...good, colour_mapping: [range(undefined, 800)] },
    refusal: { code: 'KPI_CONDITIONS_EMPTY', message: 'Fill in conditions to continue', field: 'definition.colour_mapping.0.from' },
  },
  {
    name: 'a range without its upper bound',
    definition: { ...good, colour_mapping: [range(0, 800), range(800, undefined)] },
    refusal: { code: 'KPI_CONDITIONS_EMPTY', message: 'Fill in conditions to continue', field: 'definition.colour_mapping.1.to' },
  },
  {
    name: 'no out-of-bounds colour',
    definition: { chart: 'bar', colour_mapping: [range(0, 800)] },
    refusal: { code: 'KPI_COLOUR_OUT_OF_BOUNDS', message: 'Color is out of bounds', field: 'definition.out_of_bounds_color' },
  },
  {
    name: 'a gauge whose last bound is not its maximum',
    definition: { ...good, chart: 'gauge', max: 4000, colour_mapping: [range(0, 800), range(800, 5000)] },
    refusal: { code: 'KPI_GAUGE_MAXIMUM', message: 'The last value must equal the chart maximum', field: 'definition.max' },
  },
  {
    name: 'a gauge without a maximum',
    definition: { ...good, chart: 'gauge', colour_mapping: [range(0, 800)] },
    refusal: { code: 'VALIDATION', message: 'definition.max is required', field: 'definition.max' },
  },
  ...(['color', 'measure', 'property', 'label'] as const).map((missing) => {
    const { [missing]: _left, ...rest } = range(0, 800);
    return {
      name: `a range without its ${missing}`,
      definition: { ...good, colour_mapping: [rest] },
      refusal: { code: 'VALIDATION', message: `definition.colour_mapping.0.${missing} is required`, field: `definition.colour_mapping.0.${missing}` },
    };
  }),
  {
    name: 'an empty label',
    definition: { ...good, colour_mapping: [range(0, 800, '#00ff00', { label: '' })] },
    refusal: { code: 'VALIDATION', message: 'definition.colour_mapping.0.label must NOT have fewer than 1 characters', field: 'definition.colour_mapping.0.label' },
  },
  {
    name: 'a colour that is not #rrggbb',
    definition: { ...good, colour_mapping: [range(0, 800, 'red')] },
    refusal: { code: 'COLOUR_INVALID', message: 'definition.colour_mapping.0.color must match pattern "^#[0-9a-fA-F]{6}$"', field: 'definition.colour_mapping.0.color' },
  },
];

describe.each(cases)('$name', ({ definition, refusal }) => {
  it('is refused alike by create_kpi, update_kpi and the preview: 400, the code, the words, the field', async () => {
    const answers = { create: await createKpi(admin, definition), update: await updateKpi(admin, storedId, definition), preview: await previewKpi(admin, definition) };
    for (const [door, answer] of Object.entries(answers)) {
      expect(answer.status, `${door}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.error, door).toEqual(refusal);
    }
    // and the stored KPI is unchanged
    expect((await readKpi(admin, storedId)).body.data.kpi.definition).toMatchObject(good);
  });
});

describe('a good mapping', () => {
  it('is stored and read back as sent, and previews', async () => {
    const read = await readKpi(admin, storedId);
    expect(read.body.data.kpi.definition.colour_mapping).toEqual(good.colour_mapping);
    expect(read.body.data.kpi.definition.out_of_bounds_color).toBe(good.out_of_bounds_color);
    const gauge = { chart: 'gauge', max: 5000, colour_mapping: good.colour_mapping.slice(0, 3), out_of_bounds_color: '#999999' };
    const updated = await updateKpi(admin, storedId, gauge);
    expect(updated.error).toBeUndefined();
    expect((await readKpi(admin, storedId)).body.data.kpi.definition).toMatchObject(gauge);
    expect((await previewKpi(admin, gauge)).status).toBe(200);
    expect((await previewKpi(admin, good)).status).toBe(200);
    await updateKpi(admin, storedId, good);
  });
});

describe('who may', () => {
  it('another tenant can neither read nor change the KPI: Not found, as for an id that exists nowhere', async () => {
    const answers = [];
    for (const id of [storedId, 2_000_000_000]) {
      const read = await readKpi(facilityAdmin, id);
      expect(read.body.data).toEqual({ kpi: null });
      expect(read.error).toMatchObject({ code: 'NOT_FOUND', message: 'Not found' });
      const update = await updateKpi(facilityAdmin, id, { ...good, out_of_bounds_color: '#000000' });
      expect(update.status).toBe(404);
      expect(update.error).toMatchObject({ code: 'NOT_FOUND', message: 'Not found' });
      answers.push({ read: read.body, update: update.body });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect((await readKpi(admin, storedId)).body.data.kpi.definition.out_of_bounds_color).toBe('#999999');
  });

  it('the operator cannot create, change or preview one, whatever the mapping: 403 first', async () => {
    for (const definition of [good, cases[0].definition]) {
      for (const answer of [await createKpi(operator, definition), await updateKpi(operator, storedId, definition), await previewKpi(operator, definition)]) {
        expect(answer.status).toBe(403);
        expect(answer.error?.code).toBe('FORBIDDEN');
      }
    }
  });
});
