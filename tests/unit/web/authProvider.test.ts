// The auth provider against a stubbed fetch: the e-mail is trimmed, a sign-in answer without a
// token fails with the SPEC §8 message, logout without a token says so, and logout clears what the
// session stored.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, setUpI18n } from '../../../src/i18n/i18n.ts';
import { authProvider } from '../../../src/providers/authProvider.ts';
import { getAccessToken } from '../../../src/session/tokenStorage.ts';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeAll(() => {
  setUpI18n('facility');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('authProvider', () => {
  it('sends the trimmed e-mail and stores the tokens', async () => {
    const fetchStub = vi.fn(async () => json(200, { access_token: 'a.b.c', refresh_token: 'r' }));
    vi.stubGlobal('fetch', fetchStub);
    const result = await authProvider.login({ email: '  admin@demo.city ', password: 'demo1234' });
    expect(result.success).toBe(true);
    const [, init] = fetchStub.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ email: 'admin@demo.city', password: 'demo1234' });
    expect(getAccessToken()).toBe('a.b.c');
  });

  it('fails with "Missing token in response" when the answer has no access token', async () => {
    await i18n.changeLanguage('en');
    vi.stubGlobal('fetch', vi.fn(async () => json(200, {})));
    const result = await authProvider.login({ email: 'admin@demo.city', password: 'demo1234' });
    expect(result.success).toBe(false);
    expect(result.error?.message).toBe('Missing token in response');
    expect(getAccessToken()).toBeFalsy();
  });

  it('logout without a token answers "LogOut: token is undefined!" and goes to /login', async () => {
    await i18n.changeLanguage('en');
    const result = await authProvider.logout({});
    expect(result).toMatchObject({ success: false, redirectTo: '/login', error: { message: 'LogOut: token is undefined!' } });
  });

  it('logout clears what the session stored: its tokens, the dashboard\'s state and the selected region\'s cookie', async () => {
    localStorage.setItem('terrasight.access_token', 'a.b.c');
    localStorage.setItem('terrasight.refresh_token', 'r');
    localStorage.setItem('terrasight.dashboard.t.u', '{}');
    localStorage.setItem('sidebar_status', 'collapsed');
    document.cookie = 'terrasight_region=42; path=/';
    vi.stubGlobal('fetch', vi.fn(async () => json(200, {})));
    expect((await authProvider.logout({})).success).toBe(true);
    expect(document.cookie).not.toContain('terrasight_region');
    expect(Object.keys(localStorage)).toEqual(['sidebar_status']); // a preference of the device stays
  });
});
