// Every GraphQL document is bounded before it runs: tokens, depth, aliases, directives, cost;
// one operation per request; introspection only for signed-in users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS } from '../../server/graphql/limits.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.login('admin@demo.city')).access_token;
});
afterAll(async () => { await t?.close(); });

const graphql = (body: unknown, auth = true) => t.send({ method: 'POST', path: '/graphql', body, ...(auth ? { token } : {}) });

const refusedAsInvalid = (answer: { status: number; body: any }) => {
  expect(answer.status).toBe(400);
  expect(answer.body.data ?? null).toBeNull();
  expect(answer.body.errors[0].message).toBeTruthy();
};

describe('GraphQL limits', () => {
  it('refuses 1,000 aliases of entity_tree before running any of them', async () => {
    const aliases = Array.from({ length: 1000 }, (_, i) => `a${i}: entity_tree { id }`).join(' ');
    const answer = await graphql({ query: `{ ${aliases} }` });
    refusedAsInvalid(answer);
    const fewer = Array.from({ length: GRAPHQL_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: entity_type_group_list { id }`).join(' ');
    const aliased = await graphql({ query: `{ ${fewer} }` });
    refusedAsInvalid(aliased);
    expect(aliased.body.errors[0].message).toMatch(/aliases/i);
    const allowed = Array.from({ length: GRAPHQL_LIMITS.maxAliases }, (_, i) => `a${i}: entity_type_group_list { id }`).join(' ');
    expect((await graphql({ query: `{ ${allowed} }` })).status).toBe(200);
  });

  it('refuses documents nested deeper than the limit', async () => {
    let selection = '{ id }';
    for (let i = 0; i < GRAPHQL_LIMITS.maxDepth + 1; i++) selection = `{ id children ${selection} }`;
    const answer = await graphql({ query: `{ entity_tree ${selection} }` });
    refusedAsInvalid(answer);
    expect(answer.body.errors[0].message).toMatch(/depth/i);
  });

  it('stops parsing a document with too many tokens', async () => {
    const fields = Array.from({ length: GRAPHQL_LIMITS.maxTokens }, () => 'id').join(' ');
    const answer = await graphql({ query: `{ entity_type_group_list { ${fields} } }` });
    refusedAsInvalid(answer);
    expect(answer.body.errors[0].message).toMatch(/tokens/i);
  });

  it('refuses too many directives and a too costly document', async () => {
    const directives = Array.from({ length: GRAPHQL_LIMITS.maxDirectives + 1 }, () => '@include(if: true)').join(' ');
    refusedAsInvalid(await graphql({ query: `{ entity_type_group_list ${directives} { id } }` }));
    let selection = '{ id name tree_path level attributes }';
    for (let i = 0; i < 7; i++) selection = `{ id name tree_path level attributes a: children ${selection} b: children ${selection} }`;
    refusedAsInvalid(await graphql({ query: `{ entity_tree ${selection} }` }));
  });

  it('takes one operation per request (no batches)', async () => {
    const answer = await graphql([{ query: '{ entity_type_group_list { id } }' }, { query: '{ entity_type_group_list { id } }' }]);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it('answers introspection only to signed-in users', async () => {
    const anonymous = await graphql({ query: '{ __schema { types { name } } }' }, false);
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(anonymous.body)).not.toContain('EntityType');
    const signedIn = await graphql({ query: '{ __schema { queryType { name } } }' });
    expect(signedIn.body.data.__schema.queryType.name).toBe('Query');
  });
});
