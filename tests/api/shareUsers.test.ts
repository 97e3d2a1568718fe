// share_user_list(kind): whom a board may be shared with — the tenant's other users holding the
// kind's module — for whoever may share such a board, without `users.list`; never another
// tenant's users, never for a caller without the kind's module and share permission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCityUser } from '../support/boardCallers.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
const token: Record<string, string> = {};

const list = (caller: string, kind: unknown) =>
  t.send({ method: 'POST', path: '/graphql', token: token[caller], body: { query: 'query($k: String!) { share_user_list(kind: $k) { id username email } }', variables: { k: kind } } });
const emails = (answer: { body: any }) => answer.body.data.share_user_list.map((user: { email: string }) => user.email).sort();

beforeAll(async () => {
  t = await startTestApp();
  await addCityUser(t, 'sharer@demo.city');
  for (const email of ['admin@demo.city', 'operator@demo.city', 'admin@demo.facility', 'sharer@demo.city']) token[email] = (await t.login(email)).access_token;
});
afterAll(async () => { await t?.close(); });

describe('share_user_list', () => {
  it('lists the tenant\'s other users with the performance dashboard, to a board owner without users.list', async () => {
    const answer = await list('sharer@demo.city', 'performance');
    expect(answer.body.errors).toBeUndefined();
    expect(emails(answer)).toEqual(['admin@demo.city', 'operator@demo.city']);
    expect(answer.body.data.share_user_list[0]).toEqual({ id: expect.any(String), username: expect.any(String), email: 'admin@demo.city' });
  });

  it('lists for public-API boards the users with the public-API dashboard, never the caller', async () => {
    const answer = await list('admin@demo.city', 'public_api');
    expect(answer.body.errors).toBeUndefined();
    expect(emails(answer)).toEqual(['sharer@demo.city']);
  });

  it('answers 403 to a user without the share permission, and to another tenant nothing of this one', async () => {
    const denied = await list('operator@demo.city', 'performance');
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(denied.body.data).toBeNull();
    const other = await list('admin@demo.facility', 'performance');
    if (!other.body.errors) expect(emails(other).filter((email: string) => email.endsWith('@demo.city'))).toEqual([]);
    else expect(other.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('refuses an unknown kind and a huge one with 400', async () => {
    for (const kind of ['users', 'x'.repeat(100_000)]) {
      const answer = await list('admin@demo.city', kind);
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].extensions.code).toBe('VALIDATION');
    }
  });
});
