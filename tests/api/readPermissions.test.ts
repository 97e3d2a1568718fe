// Which reads each demo role may make (docs/api.md "Who may read what"): every signed-in user
// reads the shell's data of their own tenant; the user list needs user administration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestApp();
  for (const email of ['admin@demo.city', 'operator@demo.city']) tokens[email] = (await t.login(email)).access_token;
});
afterAll(async () => { await t?.close(); });

const graphql = (query: string, token: string) =>
  t.send({ method: 'POST', path: '/graphql', body: { query }, token });

describe('reads by role', () => {
  it.each(['/tenant', '/user-me', '/entity-type-list', '/entity-list', '/entity/1', '/group-tree', '/group-list', '/watcher-list'])(
    '%s is open to the admin and the operator of the tenant', async (path) => {
      for (const token of Object.values(tokens)) expect((await t.get(path, token)).status, path).toBe(200);
    });

  it('the operator (no permissions) gets 403 with a clear message for user_list; the admin gets the list', async () => {
    const refused = await graphql('{ user_list { email } }', tokens['operator@demo.city']);
    expect(refused.status).toBe(403);
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors[0]).toMatchObject({
      message: 'You do not have permission to do this (it needs users.list).',
      extensions: { code: 'FORBIDDEN', params: { permission: 'users.list' } },
    });
    expect(JSON.stringify(refused.body)).not.toContain('@demo.city');
    const listed = await graphql('{ user_list { email } }', tokens['admin@demo.city']);
    expect(listed.status).toBe(200);
    expect(listed.body.data.user_list.length).toBe(2);
  });

  it('the GraphQL reads other than user_list stay open to the operator', async () => {
    const { status, body } = await graphql('{ entity_type_group_list { id } entity_tree(level: 0) { id } }', tokens['operator@demo.city']);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
  });
});
