// GET /entity-list a page at a time (what the studio lists, whatever the tenant's size): tree
// order, X-Total-Count, a region's subtree and a set of types; bounded; another tenant sees nothing.
// Without pages, a list of more than MAX_UNPAGED_ENTITIES is refused.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NAMED_CANDIDATES, MAX_UNPAGED_ENTITIES } from '../../server/db/entityQueries.ts';
import { containing } from '../../server/db/rows.ts';
import { ANSWER_TOO_LARGE } from '../../server/errors.ts';
import { MAX_LISTED_CHILDREN } from '../../src/schemas/entityJson.ts';
import { makeEntities } from '../support/testEntities.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let facility: string;
let all: any[];

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
  all = (await t.get('/entity-list', admin)).body;
});
afterAll(async () => { await t?.close(); });

const page = (query: string, token = admin) => t.send({ path: `/entity-list?${query}`, token });

describe('GET /entity-list with per_page', () => {
  it('pages through every entity in tree order, each record as the whole list has it, with the total', async () => {
    const seen: any[] = [];
    for (let number = 1; ; number += 1) {
      const answer = await page(`per_page=7&page=${number}`);
      expect(answer.status).toBe(200);
      expect(Number(answer.headers['x-total-count'])).toBe(all.length);
      if (!answer.body.length) break;
      seen.push(...answer.body);
    }
    expect(seen).toEqual(all); // same order (tree path, id), same groups and fields
  });

  it('narrows to a region\'s subtree and to a set of types, the search too', async () => {
    const region = all.find((entity) => entity.parent_id === null && all.some((child) => child.parent_id === entity.id));
    const under = all.filter((entity) => entity.id === region.id || entity.tree_path.startsWith(`${region.tree_path}.`));
    const types = [...new Set(under.filter((entity) => entity.id !== region.id).map((entity) => entity.entity_type_id))].slice(0, 2);
    const expected = under.filter((entity) => types.includes(entity.entity_type_id));
    expect(expected.length).toBeGreaterThan(1);
    const answer = await page(`region=${region.id}&types=${types.join(',')}&per_page=500`);
    expect(answer.body.map((entity: any) => entity.id)).toEqual(expected.map((entity) => entity.id));
    expect(Number(answer.headers['x-total-count'])).toBe(expected.length);

    const name = expected[0].name.en as string;
    const searched = await page(`region=${region.id}&search=${encodeURIComponent(name)}&per_page=10`);
    expect(searched.body.map((entity: any) => entity.id)).toContain(expected[0].id);
    // every entity's subtree, paged, is exactly it (a path that merely begins with another's digits, '1' and '12', is not under it)
    for (const root of all) {
      const subtree = all.filter((entity) => entity.id === root.id || entity.tree_path.startsWith(`${root.tree_path}.`)).map((entity) => entity.id);
      expect((await page(`region=${root.id}&per_page=500`)).body.map((entity: any) => entity.id), root.tree_path).toEqual(subtree);
    }
    // without per_page the same filters answer the whole list
    expect((await page(`region=${region.id}&types=${types.join(',')}`)).body.map((entity: any) => entity.id)).toEqual(expected.map((entity) => entity.id));
  });

  it('answers an empty page past the end, and 400 for out-of-bounds paging or ids, without internals', async () => {
    const past = await page('per_page=500&page=1000');
    expect(past.body).toEqual([]);
    expect(Number(past.headers['x-total-count'])).toBe(all.length);
    for (const query of ['per_page=501', 'per_page=0', 'per_page=5&page=0', 'per_page=5&page=abc', 'types=abc', 'types=1,99999999999', 'region=0', 'region=-1']) {
      const refused = await page(query);
      expect(refused.status, query).toBe(400);
      expect(JSON.stringify(refused.body)).not.toMatch(/SELECT|stack|\.ts:/);
    }
  });

  it('shows another tenant nothing of this one, even named by its region', async () => {
    const region = all.find((entity) => entity.parent_id === null);
    const answer = await page(`region=${region.id}&per_page=50`, facility);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
    expect(answer.headers['x-total-count']).toBe('0');
  });
});

describe('a search by name', () => {
  it('finds exactly the entities whose name contains the text, through the names\' index or past it, and never another tenant\'s', async () => {
    const [{ tenant_id: tenantId }] = await t.db.systemQuery<{ tenant_id: string }>(sql`SELECT tenant_id FROM users WHERE email = 'admin@demo.city'`);
    await makeEntities(t, tenantId, 'Searchable lamp', MAX_NAMED_CANDIDATES + 1);
    const truth = async (text: string) => (await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM entities
      WHERE tenant_id = ${tenantId} AND EXISTS (SELECT 1 FROM jsonb_each_text(name) n WHERE n.value ILIKE ${containing(text)})`))[0].count;
    // few names contain it (the index's candidates), most of the new ones (every name read), too short for the index
    for (const text of ['Searchable lamp 777', 'searchable LAMP', '77', 'x', 'lamp 1_', '100%', 'lamp 1']) {
      const answer = await page(`search=${encodeURIComponent(text)}&per_page=50`);
      expect(answer.status, text).toBe(200);
      expect(Number(answer.headers['x-total-count']), text).toBe(await truth(text));
      for (const entity of answer.body) expect(entity.name.en.toLowerCase(), text).toContain(text.toLowerCase());
    }
    expect(await truth('Searchable lamp 777')).toBe(11); // 777 and 7770–7779
    expect(await truth('searchable LAMP')).toBeGreaterThan(MAX_NAMED_CANDIDATES);
    // the other tenant finds none of them, however it asks
    const theirs = await page(`search=${encodeURIComponent('Searchable lamp 777')}&per_page=50`, facility);
    expect(theirs.body).toEqual([]);
    expect(theirs.headers['x-total-count']).toBe('0');
    expect((await t.get(`/entity-list?search=${encodeURIComponent('Searchable lamp 777')}`, facility)).body).toEqual([]);
    expect((await t.get(`/entity-list?search=${encodeURIComponent('Searchable lamp 777')}`, admin)).body).toHaveLength(11);
  });
});

describe('a list without pages', () => {
  it('of more than MAX_UNPAGED_ENTITIES matches answers 400 ANSWER_TOO_LARGE at once, REST and entity_tree alike; pages still serve it', async () => {
    const region = all.find((entity) => entity.parent_id === null && all.some((child) => child.parent_id === entity.id));
    const [{ tenant_id: tenantId }] = await t.db.systemQuery<{ tenant_id: string }>(sql`SELECT tenant_id FROM entities WHERE id = ${region.id}`);
    const { typeId: lampType } = await makeEntities(t, tenantId, 'Many lamp', MAX_UNPAGED_ENTITIES + 1, { parent: region });

    const refused = await page(`region=${region.id}&type=${lampType}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ANSWER_TOO_LARGE', message: ANSWER_TOO_LARGE, params: { limit: MAX_UNPAGED_ENTITIES } });
    const tree = (await t.post('/graphql', { query: `{ entity_tree(id: ${region.id}, depth: 1) { id } }` }, admin)).body;
    expect(tree.errors[0]).toMatchObject({ message: ANSWER_TOO_LARGE, extensions: { code: 'ANSWER_TOO_LARGE' } });

    const first = await page(`region=${region.id}&type=${lampType}&per_page=500`);
    expect(first.body).toHaveLength(500);
    expect(Number(first.headers['x-total-count'])).toBe(MAX_UNPAGED_ENTITIES + 1);
    // another tenant's whole list is still answered
    expect((await t.get('/entity-list', facility)).status).toBe(200);
  });

  it('of an entity\'s children lists the first MAX_LISTED_CHILDREN ids and counts them all, in GET /entity/{id} and a refused delete', async () => {
    const region = all.find((entity) => entity.parent_id === null && all.some((child) => child.parent_id === entity.id));
    const [{ tenant_id: tenantId }] = await t.db.systemQuery<{ tenant_id: string }>(sql`SELECT tenant_id FROM entities WHERE id = ${region.id}`);
    await makeEntities(t, tenantId, 'Child lamp', MAX_LISTED_CHILDREN + 1, { parent: region });
    const children = (await t.db.systemQuery<{ id: number }>(sql`SELECT id FROM entities WHERE parent_id = ${region.id} ORDER BY id`)).map(({ id }) => id);
    expect(children.length).toBeGreaterThan(MAX_LISTED_CHILDREN);

    const { status, body } = await t.get(`/entity/${region.id}`, admin);
    expect(status).toBe(200);
    expect(body.children).toEqual(children.slice(0, MAX_LISTED_CHILDREN));
    expect(body.children_count).toBe(children.length);
    const refused = await t.post('/graphql', { query: `mutation { delete_entity(id: ${region.id}) { deleted childrenIds } }` }, admin);
    expect(refused.body.data.delete_entity).toEqual({ deleted: false, childrenIds: children.slice(0, MAX_LISTED_CHILDREN).map(String) });
    // another tenant learns nothing of them
    expect((await t.get(`/entity/${region.id}`, facility)).status).toBe(404);
  });
});
