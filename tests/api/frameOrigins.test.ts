// The tenant's frame origins (PUT /tenant/iframe-origins): replaced whole by a board administrator,
// read by everyone of the tenant in GET /tenant, never another tenant's; anything but an https
// origin refused with the product's message, the list bounded; no permission, no token or an API
// token refused before the body is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facility: string;

const put = (token: string | undefined, body: unknown) => t.app.inject({
  method: 'PUT', url: '/tenant/iframe-origins', payload: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
});
const tenantOf = async (token: string) => (await t.get('/tenant', token)).body as { name: string; attributes: Record<string, unknown> };

beforeAll(async () => {
  t = await startTestApp();
  [admin, operator, facility] = await Promise.all(['admin@demo.city', 'operator@demo.city', 'admin@demo.facility'].map(async (email) => (await t.login(email)).access_token));
});
afterAll(async () => { await t?.close(); });

describe('the tenant\'s frame origins', () => {
  it('are replaced whole by a board administrator, one spelling each, and read by everyone of the tenant with its other attributes kept', async () => {
    const before = await tenantOf(admin);
    const saved = await put(admin, { origins: ['https://Grafana.Example.com', 'https://status.example.com:8443', 'https://grafana.example.com'] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ origins: ['https://grafana.example.com', 'https://status.example.com:8443'] });
    const after = await tenantOf(operator);
    expect(after.attributes).toEqual({ ...before.attributes, iframe_origins: ['https://grafana.example.com', 'https://status.example.com:8443'] });
    // another tenant's list is its own
    expect((await tenantOf(facility)).attributes.iframe_origins).toBeUndefined();

    expect((await put(admin, { origins: [] })).json()).toEqual({ origins: [] });
    expect((await tenantOf(admin)).attributes.iframe_origins).toEqual([]);
  });

  it('refuse anything but an https origin, and more than 50, changing nothing', async () => {
    await put(admin, { origins: ['https://kept.example.com'] });
    for (const origin of ['http://plain.example.com', 'https://x.example.com/path', "https://x.example.com 'unsafe-inline'", 'javascript:alert(1)', 'https://user@x.example.com', 'https://', '']) {
      const refused = await put(admin, { origins: [origin] });
      expect(refused.statusCode, origin).toBe(400);
      expect(refused.json().errors[0], origin).toMatchObject({ code: origin === '' || origin === 'https://' ? expect.any(String) : 'FRAME_ORIGIN_INVALID' });
    }
    const path = await put(admin, { origins: ['https://x.example.com/path'] });
    expect(path.json().errors[0]).toMatchObject({ code: 'FRAME_ORIGIN_INVALID', message: 'An allowed origin is https:// and a host name, with a port if needed, and nothing more.' });
    const many = Array.from({ length: 51 }, (_, index) => `https://h${index}.example.com`);
    expect((await put(admin, { origins: many })).statusCode).toBe(400);
    for (const body of [{}, { origins: [7] }, { origins: [], more: 1 }, '{"origins": [', 'null']) {
      const answer = await put(admin, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.body).not.toMatch(/SELECT|stack|\.ts:/);
    }
    expect((await put(admin, { origins: ['https://a.example.com'], padding: 'x'.repeat(40_000) })).statusCode).toBe(413);
    expect((await tenantOf(admin)).attributes.iframe_origins).toEqual(['https://kept.example.com']);
  });

  it('are not changed by a user without the whole board permission, an API token or no token, whatever the body', async () => {
    const refused = await put(operator, '{"origins": [');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].code).toBe('FORBIDDEN');
    const apiUser = await t.post('/api/users', { username: 'origins.bot', password: 'long-secret-pass-1', permissions: ['public-api.board.*'] }, admin);
    expect((await put(apiUser.body.access_token, { origins: ['https://evil.example.com'] })).statusCode).toBe(403);
    expect((await put(undefined, { origins: ['https://evil.example.com'] })).statusCode).toBe(401);
    expect((await tenantOf(admin)).attributes.iframe_origins).toEqual(['https://kept.example.com']);
  });
});
