// GET /map-clusters with `rules`: each cluster counts its devices by the first colour rule their
// value of the colour-by attribute meets (the last count: none), as stored and as changed since,
// scoped to the tenant; malformed rules answer 400 naming `rules`.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES_INVALID } from '../../server/api/mapClusterRoutes.ts';
import { LIST_ALL_UP_TO, MAX_RULES_TEXT } from '../../src/schemas/mapClusters.ts';
import { MAX_RULE_TEXT, MAX_RULES } from '../../src/shared/map/ruleConditions.ts';
import { makeEntities } from '../support/testEntities.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facility: string;
let lampIds: number[];

/** Where the test's lamps stand: a square of 60 × 60 a few metres apart, in the ocean (no demo device near). */
const WEST = -40;
const SOUTH = 10;
const COUNT = LIST_ALL_UP_TO + 1_600;
const VIEW = `zoom=12&west=${WEST - 0.05}&south=${SOUTH - 0.05}&east=${WEST + 0.05}&north=${SOUTH + 0.05}`;
const RULES = [{ operator: '>', value: 50 }, { operator: 'between', value: 10, to: 20 }, { operator: '==', value: 'off' }];

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
  const [{ tenant_id: tenantId }] = await t.db.systemQuery<{ tenant_id: string }>(sql`SELECT tenant_id FROM users WHERE email = 'admin@demo.city'`);
  const { typeId, ids } = await makeEntities(t, tenantId, 'Rule lamp', COUNT);
  lampIds = ids;
  // dim levels 0–99 by id, every 7th lamp without one, every 11th 'off' (text)
  await t.db.systemQuery(sql`UPDATE entities SET
      geom = jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(${WEST} + (id % 60) * 0.0001, ${SOUTH} + (id / 60 % 60) * 0.0001)),
      attributes = CASE WHEN id % 7 = 0 THEN '{}'::jsonb WHEN id % 11 = 0 THEN '{"dim_level": "off"}'::jsonb ELSE jsonb_build_object('dim_level', id % 100) END
    WHERE entity_type_id = ${typeId}`);
});
afterAll(async () => { await t?.close(); });

const ruled = (token: string, rules: unknown = RULES, extra = '&attribute=dim_level') =>
  t.get(`/map-clusters?${VIEW}${extra}&rules=${encodeURIComponent(typeof rules === 'string' ? rules : JSON.stringify(rules))}`, token);

/** The counts per rule of an answer: its clusters' and its lone devices' (by their value), added up. */
async function countsOf(token: string) {
  const { status, body } = await ruled(token);
  expect(status).toBe(200);
  const counts = new Array<number>(RULES.length + 1).fill(0);
  for (const cluster of body.clusters) {
    expect(cluster[10].reduce((sum: number, count: number) => sum + count, 0)).toBe(cluster[2]);
    cluster[10].forEach((count: number, index: number) => { counts[index] += count; });
  }
  return { counts, body };
}

/** What the database says: each lamp's first rule met. */
async function storedCounts() {
  const [row] = await t.db.systemQuery<{ above: number; between: number; off: number; all: number }>(sql`SELECT
      count(*) FILTER (WHERE jsonb_typeof(attributes->'dim_level') = 'number' AND (attributes->>'dim_level')::numeric > 50)::int AS above,
      count(*) FILTER (WHERE jsonb_typeof(attributes->'dim_level') = 'number' AND (attributes->>'dim_level')::numeric BETWEEN 10 AND 20)::int AS between,
      count(*) FILTER (WHERE attributes->>'dim_level' = 'off')::int AS off,
      count(*)::int AS all
    FROM entities WHERE id = ANY(${`{${lampIds.join(',')}}`}::int[])`);
  return [row.above, row.between, row.off, row.all - row.above - row.between - row.off];
}

describe('GET /map-clusters with colour rules', () => {
  it('counts each cluster\'s devices by the first rule met, exactly as stored, the same for the operator', async () => {
    const { counts, body } = await countsOf(admin);
    expect(body.points).toEqual([]); // every test lamp is in a cluster at this zoom
    expect(counts).toEqual(await storedCounts());
    expect(counts.every((count) => count > 0)).toBe(true);
    expect((await countsOf(operator)).counts).toEqual(counts);
    // without rules the clusters carry no counts by rule
    expect((await t.get(`/map-clusters?${VIEW}&attribute=dim_level`, admin)).body.clusters.every((cluster: unknown[]) => cluster.length === 10)).toBe(true);
  });

  it('moves the counts as values change, by hand edits and by updates, without reading everything again', async () => {
    const [first, second] = lampIds.filter((id) => id % 7 !== 0 && id % 11 !== 0 && id % 100 <= 50);
    const before = await storedCounts();
    const edited = await t.post('/graphql', { query: 'mutation($id: ID!) { update_entity_attribute(id: $id, attributes: { dim_level: 99 }) { id } }', variables: { id: first } }, admin);
    expect(edited.body.errors).toBeUndefined();
    const updated = await t.post('/graphql', { query: 'mutation($id: ID!) { update_entity(id: $id, attributes: { dim_level: "off" }) { id } }', variables: { id: second } }, admin);
    expect(updated.body.errors).toBeUndefined();
    const after = await storedCounts();
    expect(after).not.toEqual(before);
    await expect.poll(async () => (await countsOf(admin)).counts).toEqual(after);
  });

  it('shows another tenant none of these devices, whatever its rules', async () => {
    const theirs = await ruled(facility);
    expect(theirs.status).toBe(200);
    expect(theirs.body.clusters).toEqual([]);
    expect(theirs.body.points).toEqual([]);
  });

  it('refuses malformed rules with a clear 400 naming them, and keeps answering', async () => {
    const refusals: [unknown, string?][] = [
      ['not json'], ['{"operator":">","value":1}'], [[]], [[{ operator: '>', value: '5' }]], [[{ operator: 'between', value: 5 }]],
      [[{ operator: 'between', value: 5, to: 1 }]], [[{ operator: 'like', value: 1 }]], [[{ operator: '==', value: { a: 1 } }]],
      [[{ operator: '==', value: 'x'.repeat(MAX_RULE_TEXT + 1) }]], [Array.from({ length: MAX_RULES + 1 }, () => ({ operator: '>', value: 1 }))],
      ['[{"operator":">","value":1,"__proto__":{"polluted":true}}]'], [[{ operator: '>', value: 1, colour: '#ff0000' }]],
      [RULES, ''], ['x'.repeat(MAX_RULES_TEXT + 1)],
    ];
    for (const [rules, extra] of refusals) {
      const refused = await ruled(admin, rules, extra);
      expect(refused.status, JSON.stringify(rules).slice(0, 80)).toBe(400);
      expect(JSON.stringify(refused.body)).not.toMatch(/stack|at \/|SELECT/);
    }
    expect((await ruled(admin, 'not json')).body.errors[0]).toMatchObject({ code: 'VALIDATION', message: RULES_INVALID, field: 'rules' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await ruled(admin)).status).toBe(200);
  });

  it('answers many callers with the most rules at once, each by its own rules', async () => {
    const most = (shift: number) => Array.from({ length: MAX_RULES }, (_, index) => ({ operator: '>=', value: 100 - (index + shift) * 10 }));
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => ruled(i % 2 ? operator : admin, most(i % 3))));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[i % 6].body);
      for (const cluster of answer.body.clusters) expect(cluster[10]).toHaveLength(MAX_RULES + 1);
    }
    expect(answers[0].body).not.toEqual(answers[1 + 1].body); // other rules, other counts
  });
});
