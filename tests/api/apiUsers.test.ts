// API users and their tokens, as a tenant admin and a program see them: create (POST /api/users),
// sign in (POST /public/auth/login), list (api_user_list), change a password, delete, sign out;
// tokens that are random, prefixed, stored only hashed, expiring, rate-limited and revoked at
// once; and the gate: an API token reaches the public API and nothing else.
import { hashPassword } from '../../server/auth/passwords.ts';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

/** Requests a token may make per minute in this file (the default is 600). */
const RATE_LIMIT = 40;

let t: TestApp;
let admin: string;
let facilityAdmin: string;
let operator: string;
let cityTenant: string;
let facilityTenant: string;
let wsUrl: string;
/** The server's log lines, and every token this file was given: none may be in the other. */
const logLines: string[] = [];
const issued = new Set<string>();

beforeAll(async () => {
  t = await startTestApp({ apiRateLimit: { requests: RATE_LIMIT, windowMs: 60_000 }, logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
  admin = (await t.login('admin@demo.city')).access_token;
  facilityAdmin = (await t.login('admin@demo.facility')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  cityTenant = (await t.get('/tenant', admin)).body.id;
  facilityTenant = (await t.get('/tenant', facilityAdmin)).body.id;
});
afterAll(async () => { await t?.close(); });

const gql = (token: string | undefined, query: string, variables?: Record<string, unknown>) => t.post('/graphql', { query, variables }, token);
const LIST = '{ api_user_list { id username permissions created_at tokens { prefix expires_at last_used_at } } }';
const CHANGE_PASSWORD = 'mutation($u: ID!, $c: String!, $p: String!) { public_user_update_password(userId: $u, current_password: $c, password: $p) }';
const DELETE = 'mutation($u: ID!) { delete_user(userId: $u) { id deleted } }';
/** The cheapest public request: it passes the gate and touches no data. */
const PING = '{ __typename }';

let serial = 0;
/** A new API user of the admin's tenant with its first token. */
async function createApiUser(token = admin, permissions: string[] = ['public-api.board.*'], password = 'long-secret-pass-1') {
  const username = `program-${++serial}.bot`;
  const answer = await t.post('/api/users', { username, password, permissions }, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  issued.add(answer.body.access_token);
  return { ...answer.body, password } as { id: string; username: string; tenant_id: string; access_token: string; expires_at: string; password: string; tokens: any[] };
}

async function signIn(tenant: string, username: string, password: string, extra: Record<string, unknown> = {}) {
  const answer = await t.post('/public/auth/login', { tenant, username, password, ...extra });
  if (answer.status === 200) issued.add(answer.body.access_token);
  return answer;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const errorCode = (answer: { body: any }) => answer.body.errors?.[0]?.code ?? answer.body.errors?.[0]?.extensions?.code;

function expectRefused(answer: { status: number; body: any }, status: number, code: string, label = '') {
  expect(answer.status, `${label} ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(status);
  expect(errorCode(answer), label).toBe(code);
}

describe('creating an API user and signing it in', () => {
  it('answers the API user with its tenant and a first token, shown once; signing in gives another', async () => {
    const user = await createApiUser();
    expect(user).toMatchObject({ username: user.username, permissions: ['public-api.board.*'], tenant_id: cityTenant, token_type: 'Bearer' });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user).not.toHaveProperty('password_hash');
    expect(JSON.stringify(user)).not.toContain('$argon2');
    const days = (Date.parse(user.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);
    expect(user.tokens).toEqual([{ prefix: user.access_token.slice(0, 12), expires_at: user.expires_at, last_used_at: null }]);

    const login = await signIn(cityTenant, user.username, user.password);
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ token_type: 'Bearer', expires_in: 90 * 86_400 });
    expect(login.body.access_token).not.toBe(user.access_token);
    for (const token of [user.access_token, login.body.access_token]) {
      expect((await gql(token, PING)).body).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('lists the tenant\'s API users with the prefix and expiry of their live tokens, never a token, a hash or a password', async () => {
    const user = await createApiUser();
    const second = (await signIn(cityTenant, user.username, user.password)).body.access_token;
    const answer = await gql(admin, LIST);
    expect(answer.status).toBe(200);
    const listed = answer.body.data.api_user_list.find((row: any) => row.id === user.id);
    expect(listed).toMatchObject({ username: user.username, permissions: ['public-api.board.*'], created_at: expect.any(String) });
    expect(listed.tokens.map((token: any) => token.prefix)).toEqual([second.slice(0, 12), user.access_token.slice(0, 12)]);
    const text = JSON.stringify(answer.body);
    for (const secret of [user.access_token, second, sha256(user.access_token), sha256(second), '$argon2', user.password]) expect(text).not.toContain(secret);
    const [stored] = await t.db.systemQuery<{ password_hash: string }>(sql`SELECT password_hash FROM api_users WHERE id = ${user.id}`);
    expect(text).not.toContain(stored.password_hash);
    // the password is not even a field of the type
    expectRefused(await gql(admin, '{ api_user_list { password } }'), 400, 'GRAPHQL_VALIDATION');
  });

  it('signs in within the tenant only, with one answer for every wrong credential; usernames are unique per tenant in any letter case', async () => {
    const user = await createApiUser();
    for (const [tenant, username, password] of [
      [cityTenant, user.username, 'not-the-password'],
      [cityTenant, 'nobody-here', user.password],
      [facilityTenant, user.username, user.password],
      ['00000000-0000-4000-8000-000000000000', user.username, user.password],
    ]) {
      const answer = await signIn(tenant, username, password);
      expectRefused(answer, 400, 'invalid_grant', `${tenant} ${username}`);
      expect(answer.body.errors[0].message).toBe('Invalid username or password');
    }
    expect((await signIn(cityTenant, user.username.toUpperCase(), user.password)).status).toBe(200);

    const taken = await t.post('/api/users', { username: user.username.toUpperCase(), password: 'long-secret-pass-2' }, admin);
    expectRefused(taken, 409, 'API_USERNAME_TAKEN');
    expect(taken.body.errors[0]).toMatchObject({ message: 'This username is already taken. Choose another one.', field: 'username' });
    const otherTenant = await t.post('/api/users', { username: user.username, password: 'long-secret-pass-2' }, facilityAdmin);
    expect(otherTenant.status).toBe(200);
    issued.add(otherTenant.body.access_token);
    expect(otherTenant.body.tenant_id).toBe(facilityTenant);
  });

  it('a token asked for fewer days lives that long; more than 90 is refused', async () => {
    const user = await createApiUser();
    const short = await signIn(cityTenant, user.username, user.password, { token_days: 1 });
    expect(short.body.expires_in).toBe(86_400);
    expectRefused(await signIn(cityTenant, user.username, user.password, { token_days: 91 }), 400, 'NUMBER_MAX');
  });
});

describe('tokens', () => {
  it('are tsa_ and 32 random bytes (256 bits), kept only as their SHA-256 hash and a short prefix', async () => {
    const user = await createApiUser();
    const tokens = [user.access_token, (await signIn(cityTenant, user.username, user.password)).body.access_token];
    for (const token of tokens) {
      expect(token).toMatch(/^tsa_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(2);
    const rows = await t.db.systemQuery<Record<string, unknown>>(sql`SELECT * FROM api_tokens WHERE api_user_id = ${user.id}`);
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.token_hash).sort()).toEqual(tokens.map(sha256).sort());
    expect(rows.map((row) => row.prefix).sort()).toEqual(tokens.map((token) => token.slice(0, 12)).sort());
    const stored = JSON.stringify(rows) + JSON.stringify(await t.db.systemQuery(sql`SELECT * FROM api_users WHERE id = ${user.id}`));
    for (const token of tokens) {
      expect(stored).not.toContain(token);
      expect(stored).not.toContain(token.slice(12)); // the secret beyond the prefix
    }
    expect(stored).not.toContain(user.password);
  });

  it('an expired token answers 401 JWT101', async () => {
    const user = await createApiUser();
    await t.db.systemQuery(sql`UPDATE api_tokens SET expires_at = now() - interval '1 minute' WHERE token_hash = ${sha256(user.access_token)}`);
    const answer = await gql(user.access_token, PING);
    expectRefused(answer, 401, 'JWT101');
    expect(answer.body.errors[0].message).toBe('Token expired');
    expect(JSON.stringify(answer.body)).not.toContain(user.access_token);
    // the next sign-in gives a live one
    const renewed = (await signIn(cityTenant, user.username, user.password)).body.access_token;
    expect((await gql(renewed, PING)).status).toBe(200);
  });

  it('an unknown or malformed tsa_ token answers 401 JWT100', async () => {
    const user = await createApiUser();
    const forged = `${user.access_token.slice(0, -1)}${user.access_token.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [forged, 'tsa_short', `tsa_${'x'.repeat(43)}`]) {
      const answer = await gql(token, PING);
      expectRefused(answer, 401, 'JWT100', token);
      expect(JSON.stringify(answer.body)).not.toContain(token);
    }
  });

  it('are limited per token: 429 with Retry-After past the limit, while another token of the same API user goes on', async () => {
    const user = await createApiUser();
    const other = (await signIn(cityTenant, user.username, user.password)).body.access_token;
    for (let i = 0; i < RATE_LIMIT; i++) expect((await gql(user.access_token, PING)).status, `request ${i + 1}`).toBe(200);
    const limited = await t.send({ method: 'POST', path: '/graphql', body: { query: PING }, token: user.access_token });
    expectRefused(limited, 429, 'API_RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.errors[0].extensions.params).toEqual({ seconds: retryAfter });
    // REST counts the same requests (the limit is checked with the token, before any door)
    const rest = await t.send({ path: '/tenant', token: user.access_token });
    expectRefused(rest, 429, 'API_RATE_LIMITED');
    expect(Number(rest.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(limited.body)).not.toContain(user.access_token);
    expect((await gql(other, PING)).status).toBe(200);
  });

  it('an API user keeps at most 10 live tokens: signing in once more revokes the oldest', async () => {
    const user = await createApiUser();
    expect((await gql(user.access_token, PING)).status).toBe(200); // remembered as live
    const later: string[] = [];
    for (let i = 0; i < 9; i++) later.push((await signIn(cityTenant, user.username, user.password)).body.access_token);
    expect((await gql(user.access_token, PING)).status).toBe(200);
    later.push((await signIn(cityTenant, user.username, user.password)).body.access_token);
    expectRefused(await gql(user.access_token, PING), 401, 'JWT100');
    const listed = (await gql(admin, LIST)).body.data.api_user_list.find((row: any) => row.id === user.id);
    expect(listed.tokens.map((token: any) => token.prefix)).toEqual(later.reverse().map((token) => token.slice(0, 12)));
    for (const token of later) expect((await gql(token, PING)).status).toBe(200);
  });

  it('POST /public/auth/logout revokes the token it comes with, and only that one', async () => {
    const user = await createApiUser();
    const other = (await signIn(cityTenant, user.username, user.password)).body.access_token;
    expect(await t.post('/public/auth/logout', undefined, user.access_token)).toMatchObject({ status: 200, body: { status: 'success' } });
    expectRefused(await gql(user.access_token, PING), 401, 'JWT100');
    expect((await gql(other, PING)).status).toBe(200);
    expectRefused(await t.post('/public/auth/logout', undefined, admin), 401, 'JWT100'); // a user's token is not an API token
    expectRefused(await t.post('/public/auth/logout', undefined), 401, 'JWT100');
  });
});

describe('changing an API user\'s password and deleting it', () => {
  it('a wrong current password answers 400 Wrong password and changes nothing', async () => {
    const user = await createApiUser();
    const answer = await gql(admin, CHANGE_PASSWORD, { u: user.id, c: 'not-the-password', p: 'brand-new-pass-3' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ message: 'Wrong password', extensions: { code: 'WRONG_PASSWORD', field: 'current_password' } });
    expect((await gql(user.access_token, PING)).status).toBe(200);
    expect((await signIn(cityTenant, user.username, user.password)).status).toBe(200);
  });

  it('the new password follows the users\' rules', async () => {
    const user = await createApiUser();
    for (const [password, code] of [['short', 'PASSWORD_TOO_SHORT'], ['        ', 'PASSWORD_BLANK'], ['Password1', 'PASSWORD_TOO_COMMON'], ['x'.repeat(1025), 'PASSWORD_TOO_LONG']]) {
      expectRefused(await gql(admin, CHANGE_PASSWORD, { u: user.id, c: user.password, p: password }), 400, code, code);
    }
    for (const [password, code] of [['short', 'PASSWORD_TOO_SHORT'], ['Password1', 'PASSWORD_TOO_COMMON']]) {
      expectRefused(await t.post('/api/users', { username: `weak-${code}`, password }, admin), 400, code, code);
    }
  });

  it('a changed password revokes every token of the API user at once; the new one signs in', async () => {
    const user = await createApiUser();
    const second = (await signIn(cityTenant, user.username, user.password)).body.access_token;
    for (const token of [user.access_token, second]) expect((await gql(token, PING)).status).toBe(200); // remembered as live
    const answer = await gql(admin, CHANGE_PASSWORD, { u: user.id, c: user.password, p: 'brand-new-pass-3' });
    expect(answer.body).toEqual({ data: { public_user_update_password: 'success' } });
    for (const token of [user.access_token, second]) expectRefused(await gql(token, PING), 401, 'JWT100');
    expectRefused(await signIn(cityTenant, user.username, user.password), 400, 'invalid_grant');
    const fresh = await signIn(cityTenant, user.username, 'brand-new-pass-3');
    expect((await gql(fresh.body.access_token, PING)).status).toBe(200);
    const listed = (await gql(admin, LIST)).body.data.api_user_list.find((row: any) => row.id === user.id);
    expect(listed.tokens.map((token: any) => token.prefix)).toEqual([fresh.body.access_token.slice(0, 12)]);
  });

  it('deleting an API user refuses its token at once, and it can no longer sign in', async () => {
    const user = await createApiUser();
    expect((await gql(user.access_token, PING)).status).toBe(200); // remembered as live
    expect((await gql(admin, DELETE, { u: user.id })).body).toEqual({ data: { delete_user: { id: user.id, deleted: true } } });
    expectRefused(await gql(user.access_token, PING), 401, 'JWT100');
    expectRefused(await signIn(cityTenant, user.username, user.password), 400, 'invalid_grant');
    expect((await gql(admin, LIST)).body.data.api_user_list.map((row: any) => row.id)).not.toContain(user.id);
    expectRefused(await gql(admin, DELETE, { u: user.id }), 404, 'NOT_FOUND');
    expect(await t.db.systemQuery(sql`SELECT id FROM api_tokens WHERE api_user_id = ${user.id}`)).toEqual([]);
  });
});

describe('who may manage API users', () => {
  it('another tenant cannot see, change or delete them', async () => {
    const user = await createApiUser();
    const theirs = (await gql(facilityAdmin, LIST)).body.data.api_user_list;
    expect(theirs.map((row: any) => row.id)).not.toContain(user.id);
    expect(JSON.stringify(theirs)).not.toContain(user.username);
    expectRefused(await gql(facilityAdmin, DELETE, { u: user.id }), 404, 'NOT_FOUND');
    expectRefused(await gql(facilityAdmin, CHANGE_PASSWORD, { u: user.id, c: user.password, p: 'brand-new-pass-3' }), 404, 'NOT_FOUND');
    expect((await gql(user.access_token, PING)).status).toBe(200);
    expect((await signIn(cityTenant, user.username, user.password)).status).toBe(200);
  });

  it('a user without the module or without all of public-api.board.* gets 403, whatever the request holds', async () => {
    const user = await createApiUser();
    await t.db.systemQuery(sql`INSERT INTO users (tenant_id, username, email, password_hash, modules, module_permissions)
      VALUES (${cityTenant}, 'Board creator', 'creator@demo.city', ${await hashPassword('demo1234')}, ARRAY['public-api-dashboard'], ARRAY['public-api.board.create'])`);
    const creator = (await t.login('creator@demo.city')).access_token;
    for (const [token, needs] of [[operator, 'the module public-api-dashboard'], [creator, 'public-api.board.*']] as const) {
      for (const body of [{ username: 'not-made', password: 'long-secret-pass-1' }, { username: '\u0000', permissions: 'users.*' }]) {
        const answer = await t.post('/api/users', body, token);
        expectRefused(answer, 403, 'FORBIDDEN', needs);
        expect(answer.body.errors[0].params.permission).toBe(needs);
      }
      expectRefused(await gql(token, LIST), 403, 'FORBIDDEN');
      expectRefused(await gql(token, DELETE, { u: user.id }), 403, 'FORBIDDEN');
      expectRefused(await gql(token, CHANGE_PASSWORD, { u: user.id, c: user.password, p: 'brand-new-pass-3' }), 403, 'FORBIDDEN');
    }
    expectRefused(await t.post('/api/users', { username: 'not-made', password: 'long-secret-pass-1' }), 401, 'JWT100');
    expect((await gql(user.access_token, PING)).status).toBe(200);
  });

  it('an API token never manages API users, even one holding public-api.board.*', async () => {
    const user = await createApiUser();
    expectRefused(await t.post('/api/users', { username: 'made-by-a-program', password: 'long-secret-pass-1' }, user.access_token), 403, 'FORBIDDEN');
    expectRefused(await gql(user.access_token, LIST), 403, 'FORBIDDEN');
    expectRefused(await gql(user.access_token, DELETE, { u: user.id }), 403, 'FORBIDDEN');
    expect((await gql(user.access_token, PING)).status).toBe(200);
  });

  it('hostile and malformed bodies are a 4xx, never a 500', async () => {
    const deep = `{"username": "deep-one", "password": "long-secret-pass-1", "permissions": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const cases: [unknown, number, string?][] = [
      [{ username: 'x'.repeat(100_000), password: 'long-secret-pass-1' }, 400],
      [{ username: 'has space', password: 'long-secret-pass-1' }, 400, 'API_USERNAME_CHARACTERS'],
      [{ username: 'nul\u0000name', password: 'long-secret-pass-1' }, 400, 'API_USERNAME_CHARACTERS'],
      [{ username: 'escalate', password: 'long-secret-pass-1', permissions: ['users.*'] }, 400, 'VALIDATION'],
      [{ username: 'escalate', password: 'long-secret-pass-1', permissions: ['public-api.board.*', 'public-api.board.*'] }, 400, 'VALIDATION'],
      [{ username: 'tenant-hop', password: 'long-secret-pass-1', tenant_id: facilityTenant }, 400, 'VALIDATION'],
      [{ username: 'no-password' }, 400, 'VALIDATION'],
      [{ username: 'huge-password', password: 'x'.repeat(600_000) }, 413],
      [deep, 400, 'JSON_TOO_DEEP'],
      ['{"username": ', 400],
      [[], 400],
    ];
    for (const [body, status, code] of cases) {
      const answer = await t.send({ method: 'POST', path: '/api/users', body, token: admin, headers: { 'content-type': 'application/json' } });
      const label = JSON.stringify(body)?.slice(0, 60);
      expect(answer.status, label).toBe(status);
      if (code) expect(errorCode(answer), label).toBe(code);
      if (code === 'API_USERNAME_CHARACTERS') expect(answer.body.errors[0]).toMatchObject({ field: 'username', message: 'A username may hold only letters, digits and the characters . _ @ -' });
    }
    const logins: unknown[] = [
      { tenant: 'not-a-uuid', username: 'someone', password: 'long-secret-pass-1' },
      { tenant: cityTenant, username: 'x'.repeat(100_000), password: 'long-secret-pass-1' },
      { tenant: cityTenant, username: 'someone', password: 'x'.repeat(2000) },
      { tenant: cityTenant, username: 'someone', password: 'long-secret-pass-1', token_days: 1.5 },
      { tenant: cityTenant, username: 'someone', password: 'long-secret-pass-1', token_days: 0 },
      { tenant: cityTenant, username: 'someone' },
      { tenant: cityTenant, username: 'some\u0000one', password: 'long-secret-pass-1' },
      [],
    ];
    for (const body of logins) {
      const answer = await t.send({ method: 'POST', path: '/public/auth/login', body, remoteAddress: '192.0.2.77' });
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    for (const [query, variables] of [
      [DELETE, { u: 'abc' }], [DELETE, { u: '1'.repeat(100_000) }],
      [CHANGE_PASSWORD, { u: cityTenant, c: 'x'.repeat(100_000), p: 'brand-new-pass-3' }],
    ] as const) {
      const answer = await gql(admin, query, variables);
      expect(answer.status).toBe(400);
      expect(errorCode(answer)).toBe('VALIDATION');
    }
    // U+0000 anywhere in a request is refused at the door, naming the variable
    const nul = await gql(admin, CHANGE_PASSWORD, { u: cityTenant, c: '\u0000', p: 'brand-new-pass-3' });
    expect(nul.status).toBe(400);
    expect(nul.body.errors[0]).toMatchObject({ message: 'body/variables/c must not contain NUL characters', extensions: { code: 'GRAPHQL_VALIDATION' } });
  });
});

describe('the gate: an API token reaches the public API and nothing else', () => {
  const OUTSIDE_REST: [method: 'GET' | 'POST', path: string, body?: unknown][] = [
    ['GET', '/entity-list'], ['GET', '/kpi-data?id=1'], ['GET', '/tenant'], ['GET', '/user-me'], ['GET', '/watcher-list'],
    ['GET', '/kpi-list'], ['GET', '/board-list'], ['GET', '/entity/1/overlay-image'], ['GET', '/mqtt'],
    ['POST', '/update-password', { input: { current_password: 'a', password: 'b', password_confirmation: 'b' } }],
    ['POST', '/create-watcher', { input: { name: 'x' } }],
  ];
  const OUTSIDE_GRAPHQL = [
    '{ kpi_list { id } }',
    '{ user_list { id } }',
    '{ entity_tree { id } }',
    '{ __schema { types { name } } }',
    '{ __typename kpi_list { id } }',
    'query { ...F } fragment F on Query { kpi_list { id } }',
    'query { ... on Query { api_user_list { id } } }',
    'query A { __typename } query B { kpi_list { id } }',
    'mutation { delete_kpi(id: 1) { id } }',
    'mutation { create_watcher(name: "x") { id } }',
  ];

  it('answers 403 from ordinary REST doors and GraphQL fields, before anything else is read', async () => {
    const user = await createApiUser(admin, ['public-api.board.*']);
    const program = (await signIn(cityTenant, user.username, user.password)).body.access_token;
    for (const [method, path, body] of OUTSIDE_REST) {
      const answer = await t.send({ method, path, body, token: program });
      expectRefused(answer, 403, 'FORBIDDEN', `${method} ${path}`);
      expect(answer.body.errors[0].message).toBe('An API token can only use the public API.');
    }
    for (const query of OUTSIDE_GRAPHQL) {
      const answer = await gql(program, query);
      expectRefused(answer, 403, 'FORBIDDEN', query);
      expect(answer.body.data).toBeNull();
    }
    // an ordinary user's token goes on as before
    expect((await t.get('/entity-list', admin)).status).toBe(200);
    expect((await gql(admin, '{ kpi_list { id } }')).status).toBe(200);
  });

  it('refuses the GraphQL WebSocket to an API token and keeps it open to users', async () => {
    const user = await createApiUser();
    const connect = (token: string) => new Promise<{ connected: boolean; code?: number }>((resolve) => {
      let connected = false;
      const client = createClient({
        url: wsUrl, connectionParams: { authorization: `Bearer ${token}` }, lazy: false, retryAttempts: 0,
        on: {
          connected: () => {
            connected = true;
            void client.dispose();
          },
          closed: (event) => resolve({ connected, code: (event as { code?: number }).code }),
        },
      });
    });
    expect(await connect(user.access_token)).toEqual({ connected: false, code: 4403 });
    expect((await connect(admin)).connected).toBe(true);
  });

  it('lets a public-API request through to its doors', async () => {
    const user = await createApiUser(admin, ['public-api.board.*']);
    expect((await gql(user.access_token, PING)).body).toEqual({ data: { __typename: 'Query' } });
    const rest = await t.get('/public-api-board-list', user.access_token);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    const graphql = await gql(user.access_token, '{ public_api_board_list { id } }');
    expect(graphql.status, JSON.stringify(graphql.body)).toBe(200);
    // boards are shared with it one by one: a new API user sees none
    expect(graphql.body.data.public_api_board_list).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('describes the public API: API users, their sign-in and the public-API board doors', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys(JSON.parse(document.body).paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/users', '/public/auth/login', '/public/auth/logout', '/public-api-board-list', '/public-api-component-list']));
  });
});

describe('secrets', () => {
  it('no token this file was given appears in the server\'s log', () => {
    expect(issued.size).toBeGreaterThan(10);
    const log = logLines.join('\n');
    expect(log.length).toBeGreaterThan(1000);
    for (const token of issued) {
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.slice(12));
    }
    expect(log).not.toContain('long-secret-pass-1');
  });
});
