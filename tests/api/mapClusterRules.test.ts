// GET /map-clusters with `rules`: each cluster counts its devices by the first colour rule their
// value of the colour-by attribute meets (the last count: none), as stored and as changed since,
// scoped to the tenant; malformed rules answer 400 naming `rules`. With `groups`: by the first
// chosen group they are in, each lone device saying which.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES_INVALID, RULES_OR_GROUPS } from '../../server/api/mapClusterRoutes.ts';
import { LIST_ALL_UP_TO, MAX_CLUSTER_ZOOM, MAX_COLOURED_GROUPS, MAX_RULES_TEXT } from '../../src/schemas/mapClusters.ts';
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

describe('GET /map-clusters with groups', () => {
  const gql = async (query: string, variables: Record<string, unknown>, token = admin) => {
    const answer = await t.post('/graphql', { query, variables }, token);
    expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
    return answer.body.data;
  };
  const grouped = (groups: string, token = admin) => t.get(`/map-clusters?${VIEW}&groups=${groups}`, token);
  const countsOf = (body: { clusters: any[][] }, classes: number) => body.clusters.reduce((sum, cluster) => sum.map((count: number, index: number) => count + cluster[10][index]), new Array(classes).fill(0));

  it('counts each cluster\'s devices by the first chosen group they are in, follows a changed membership, and names a lone device\'s group', async () => {
    // two of the demo's groups (none of their members stands where the test's lamps do)
    const [odd, tens] = ((await t.get('/group-list', admin)).body as { id: number }[]).map((group) => group.id);
    const [{ tenant_id: tenantId }] = await t.db.systemQuery<{ tenant_id: string }>(sql`SELECT tenant_id FROM groups WHERE id = ${odd}`);
    await t.db.systemQuery(sql`INSERT INTO entity_groups (tenant_id, entity_id, group_id)
      SELECT ${tenantId}::uuid, id, ${odd}::int FROM unnest(${`{${lampIds.join(',')}}`}::int[]) id WHERE id % 2 = 1
      UNION ALL SELECT ${tenantId}::uuid, id, ${tens}::int FROM unnest(${`{${lampIds.join(',')}}`}::int[]) id WHERE id % 10 = 0`);
    const expected = [lampIds.filter((id) => id % 2 === 1).length, lampIds.filter((id) => id % 10 === 0).length];
    const { body } = await grouped(`${odd},${tens}`);
    expect(countsOf(body, 3)).toEqual([...expected, COUNT - expected[0] - expected[1]]);
    // the order chosen decides: an odd lamp counts for the first group it is in
    expect(countsOf((await grouped(`${tens},${odd}`)).body, 3)).toEqual([expected[1], expected[0], COUNT - expected[0] - expected[1]]);

    // a lamp joins the first group by an update: the counts follow without reading everything again
    const even = lampIds.find((id) => id % 10 === 2)!;
    await gql('mutation($id: ID!, $g: [Int!]) { update_entity(id: $id, group_ids: $g) { id } }', { id: even, g: [odd] });
    await expect.poll(async () => countsOf((await grouped(`${odd},${tens}`)).body, 3)).toEqual([expected[0] + 1, expected[1], COUNT - expected[0] - expected[1] - 1]);

    // zoomed in past the clusters, each lamp says the group it is drawn for
    const [lng, lat] = [WEST + (even % 60) * 0.0001, SOUTH + Math.floor(even / 60 % 60) * 0.0001];
    const close = await t.get(`/map-clusters?zoom=${MAX_CLUSTER_ZOOM + 2}&west=${lng - 0.0002}&south=${lat - 0.0002}&east=${lng + 0.0002}&north=${lat + 0.0002}&groups=${odd},${tens}`, admin);
    const points = close.body.points as any[][];
    expect(points.find((point) => point[0] === even)?.[7]).toBe(odd);
    for (const [id, , , , , , , group] of points.filter((point) => lampIds.includes(point[0]))) {
      expect(group, String(id)).toBe(id === even || id % 2 === 1 ? odd : id % 10 === 0 ? tens : null);
    }

    // another tenant's view of these groups: none of its devices are in them
    const theirs = await grouped(`${odd},${tens}`, facility);
    expect(theirs.status).toBe(200);
    expect(theirs.body.points.every((point: unknown[]) => point[7] === null)).toBe(true);
  });

  it('refuses a malformed list, too many groups, or groups with rules, with a clear 400', async () => {
    for (const groups of ['', 'a', '1,,2', '-1', '1;2', Array.from({ length: MAX_COLOURED_GROUPS + 1 }, (_, i) => i + 1).join(','), '12345678901']) {
      const refused = await grouped(encodeURIComponent(groups));
      expect(refused.status, groups).toBe(400);
      expect(JSON.stringify(refused.body)).not.toMatch(/stack|at \/|SELECT/);
    }
    const both = await ruled(admin, RULES, `&attribute=dim_level&groups=1`);
    expect(both.status).toBe(400);
    expect(both.body.errors[0]).toMatchObject({ code: 'VALIDATION', message: RULES_OR_GROUPS, field: 'groups' });
  });
});
