import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSigner } from '../../server/auth/accessToken.ts';
import { JWT_SECRET, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t?.close(); });

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());

describe('POST /auth/login', () => {
  it('signs in with the demo password and returns both tokens with the documented claims', async () => {
    const { status, body } = await t.post('/auth/login', { email: 'admin@demo.city', password: 'demo1234' });
    expect(status).toBe(200);
    expect(body.access_token).toMatch(/^ey/);
    expect(body.refresh_token.length).toBeGreaterThan(20);
    const claims = claimsOf(body.access_token);
    expect(claims).toMatchObject({ modules: expect.arrayContaining(['factory-studio', 'logs']), languages: expect.arrayContaining(['sk']) });
    expect(claims.module_permissions).toContain('watcher.*');
    expect(claims.maintenance_modes).toEqual(['notify-off', 'read-only', 'device-maintenance']);
    expect(typeof claims.sub).toBe('string');
    expect(typeof claims.tenant).toBe('string');
    expect(claims.exp - claims.iat).toBe(15 * 60);
  });

  it('trims spaces around the e-mail and ignores its case', async () => {
    const { status } = await t.post('/auth/login', { email: '  Operator@Demo.City ', password: 'demo1234' });
    expect(status).toBe(200);
  });

  it('refuses a wrong password with invalid_grant and the sign-in message', async () => {
    const { status, body } = await t.post('/auth/login', { email: 'admin@demo.facility', password: 'wrong-password' });
    expect(status).toBe(400);
    expect(body.errors[0]).toEqual({ code: 'invalid_grant', message: 'Invalid email or password' });
  });

  it('answers an unknown account exactly like a wrong password', async () => {
    const { status, body } = await t.post('/auth/login', { email: 'nobody@demo.city', password: 'demo1234' });
    expect(status).toBe(400);
    expect(body.errors[0].message).toBe('Invalid email or password');
  });

  it('rejects a body without a password with a field message', async () => {
    const { status, body } = await t.post('/auth/login', { email: 'admin@demo.city' });
    expect(status).toBe(400);
    expect(body.errors).toContainEqual(expect.objectContaining({ code: 'VALIDATION', field: 'password' }));
  });
});

describe('POST /auth/refresh', () => {
  it('rotates: the new pair works, the old refresh token is dead', async () => {
    const first = await t.login('admin@demo.city');
    const rotated = await t.post('/auth/refresh', { refresh_token: first.refresh_token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
    expect((await t.get('/user-me', rotated.body.access_token)).status).toBe(200);
    const next = await t.post('/auth/refresh', { refresh_token: rotated.body.refresh_token });
    expect(next.status).toBe(200);
  });

  it('revokes the whole session when a spent refresh token is presented again', async () => {
    const first = await t.login('admin@demo.city');
    const rotated = await t.post('/auth/refresh', { refresh_token: first.refresh_token });
    // Used once, so that this instance remembers the session as live.
    expect((await t.get('/user-me', rotated.body.access_token)).status).toBe(200);
    const reuse = await t.post('/auth/refresh', { refresh_token: first.refresh_token });
    expect(reuse.status).toBe(401);
    expect(reuse.body.errors[0].code).toBe('JWT102');
    // The thief's and the owner's tokens of that session are both dead now.
    expect((await t.post('/auth/refresh', { refresh_token: rotated.body.refresh_token })).body.errors[0].code).toBe('JWT102');
    expect((await t.get('/user-me', rotated.body.access_token)).body.errors[0].code).toBe('JWT102');
    // Another session of the same user is untouched.
    const other = await t.login('admin@demo.city');
    expect((await t.get('/user-me', other.access_token)).status).toBe(200);
  });

  it('answers JWT102 for an unknown refresh token', async () => {
    const { status, body } = await t.post('/auth/refresh', { refresh_token: 'not-a-real-token' });
    expect(status).toBe(401);
    expect(body.errors[0].code).toBe('JWT102');
  });
});

describe('access token codes', () => {
  it('JWT100 without a token or with a forged one', async () => {
    const missing = await t.get('/tenant', '');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ errors: [{ code: 'JWT100', message: 'Invalid token' }] });
    const { access_token } = await t.login('admin@demo.city');
    const forged = await tokenSigner('another-secret-that-is-also-long-enough').sign(claimsOf(access_token));
    expect((await t.get('/tenant', forged)).body.errors[0].code).toBe('JWT100');
    expect((await t.get('/tenant', 'garbage')).body.errors[0].code).toBe('JWT100');
    // A token verified once is remembered; its signature on other claims is still refused.
    expect((await t.get('/tenant', access_token)).status).toBe(200);
    const [header, , signature] = access_token.split('.');
    const otherTenant = Buffer.from(JSON.stringify({ ...claimsOf(access_token), tenant: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
    expect((await t.get('/tenant', `${header}.${otherTenant}.${signature}`)).body.errors[0].code).toBe('JWT100');
  });

  it('JWT101 for an expired token', async () => {
    const { access_token } = await t.login('admin@demo.city');
    const expired = await tokenSigner(JWT_SECRET).sign(claimsOf(access_token), -60);
    const { status, body } = await t.get('/tenant', expired);
    expect(status).toBe(401);
    expect(body.errors[0]).toEqual({ code: 'JWT101', message: 'Token expired' });
  });

  it('JWT102 after logout, for the access and the refresh token', async () => {
    const tokens = await t.login('operator@demo.city');
    expect((await t.get('/user-me', tokens.access_token)).status).toBe(200);
    const logout = await t.post('/auth/logout', { refresh_token: tokens.refresh_token }, tokens.access_token);
    expect(logout.body).toEqual({ status: 'success' });
    expect((await t.get('/user-me', tokens.access_token)).body.errors[0].code).toBe('JWT102');
    expect((await t.post('/auth/refresh', { refresh_token: tokens.refresh_token })).body.errors[0].code).toBe('JWT102');
  });
});

describe('session liveness across instances', () => {
  it('a session revoked through one instance is refused at once by another that had it cached', async () => {
    const other = await startTestApp({ db: t.db });
    try {
      const tokens = await t.login('admin@demo.city');
      // The other instance checks the session once and then remembers it is live.
      expect((await other.get('/user-me', tokens.access_token)).status).toBe(200);
      expect((await other.get('/user-me', tokens.access_token)).status).toBe(200);
      await t.post('/auth/logout', { refresh_token: tokens.refresh_token }, tokens.access_token);
      // The revocation reaches it by notification, well before its cache would expire.
      let status = 0;
      for (let i = 0; i < 50 && status !== 401; i++) {
        status = (await other.get('/user-me', tokens.access_token)).status;
        if (status !== 401) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(401);
      expect((await other.get('/user-me', tokens.access_token)).body.errors[0].code).toBe('JWT102');
    } finally {
      await other.close();
    }
  });
});
