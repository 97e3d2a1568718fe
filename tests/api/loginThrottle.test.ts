// Failed sign-ins are throttled per account+address, per address and per account, in the
// database; an attacker cannot lock the owner out, and every failed attempt counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_THROTTLE, type ThrottleLimits } from '../../server/auth/loginThrottle.ts';
import { PASSWORD, startTestApp, type TestApp } from './harness.ts';

const OWNER = 'admin@demo.city';
const attempt = (t: TestApp, email: unknown, password: unknown, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.send({ method: 'POST', path: '/auth/login', body: { email, password }, remoteAddress, headers });

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t?.close(); });

describe('sign-in throttling with the default limits', () => {
  it('fifteen wrong passwords from one address do not lock the owner out elsewhere', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await attempt(t, OWNER, `guess-${i}`, '203.0.113.9')).status);
    expect(statuses.slice(0, DEFAULT_THROTTLE.perPair)).toEqual(Array(DEFAULT_THROTTLE.perPair).fill(400));
    expect(statuses.slice(DEFAULT_THROTTLE.perPair).every((s) => s === 429)).toBe(true);
    // The attacker's address is slowed even with the right password …
    const blocked = await attempt(t, OWNER, PASSWORD, '203.0.113.9');
    expect(blocked.status).toBe(429);
    expect(blocked.body.errors[0]).toMatchObject({ code: 'RATE_LIMITED', params: { minutes: expect.any(Number) } });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // … the owner at home is not.
    expect((await attempt(t, OWNER, PASSWORD, '198.51.100.7')).status).toBe(200);
  });

  it('X-Forwarded-For is ignored unless a proxy is configured, so it cannot dodge the address limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_THROTTLE.perAddress + 1; i++) {
      const forged = { 'x-forwarded-for': `192.0.2.${i}` };
      statuses.push((await attempt(t, `nobody${i}@example.com`, 'nope', '203.0.113.50', forged)).status);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('sign-in throttling with small limits', () => {
  const limits: ThrottleLimits = { ...DEFAULT_THROTTLE, perPair: 2, perAddress: 4, perAccount: 3 };
  let small: TestApp;
  beforeAll(async () => { small = await startTestApp({ throttle: limits }); });
  afterAll(async () => { await small?.close(); });

  it('counts malformed attempts: NUL in the e-mail, a missing password, bad JSON', async () => {
    const nul = await attempt(small, 'admin@demo.facility\u0000', 'x', '192.0.2.1');
    expect(nul.status).toBe(400);
    expect(nul.body.errors[0]).toMatchObject({ code: 'VALIDATION', field: 'email', message: 'email must not contain NUL characters' });
    expect((await small.send({ method: 'POST', path: '/auth/login', body: { email: 'admin@demo.facility' }, remoteAddress: '192.0.2.1' })).status).toBe(400);
    // Two failures for this account from this address: the right password must wait now.
    expect((await attempt(small, 'admin@demo.facility', PASSWORD, '192.0.2.1')).status).toBe(429);

    for (let i = 0; i < limits.perAddress; i++) {
      const bad = await small.send({ method: 'POST', path: '/auth/login', body: '{"email": ', headers: { 'content-type': 'application/json' }, remoteAddress: '192.0.2.2' });
      expect(bad.status).toBe(400);
    }
    expect((await attempt(small, 'operator@demo.city', PASSWORD, '192.0.2.2')).status).toBe(429);
  });

  it('past the account ceiling, addresses the owner used before still get in; new ones wait', async () => {
    expect((await attempt(small, 'operator@demo.city', PASSWORD, '198.51.100.20')).status).toBe(200);
    for (let i = 0; i < limits.perAccount; i++) await attempt(small, 'operator@demo.city', 'wrong', `203.0.113.${100 + i}`);
    expect((await attempt(small, 'operator@demo.city', PASSWORD, '198.51.100.20')).status).toBe(200);
    expect((await attempt(small, 'operator@demo.city', PASSWORD, '198.51.100.21')).status).toBe(429);
  });

  it('the counters live in the database: another instance (or a restart) sees them', async () => {
    for (let i = 0; i < limits.perPair; i++) await attempt(small, 'admin@demo.city', 'wrong', '192.0.2.77');
    const second = await startTestApp({ db: small.db, throttle: limits });
    try {
      expect((await attempt(second, 'admin@demo.city', PASSWORD, '192.0.2.77')).status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('honours X-Forwarded-For from a configured proxy', async () => {
    const proxied = await startTestApp({ db: small.db, throttle: limits, trustProxy: ['127.0.0.1'] });
    try {
      for (let i = 0; i < limits.perAddress; i++) {
        await attempt(proxied, `x${i}@example.com`, 'nope', '127.0.0.1', { 'x-forwarded-for': '192.0.2.200' });
      }
      expect((await attempt(proxied, OWNER, PASSWORD, '127.0.0.1', { 'x-forwarded-for': '192.0.2.200' })).status).toBe(429);
      expect((await attempt(proxied, OWNER, PASSWORD, '127.0.0.1', { 'x-forwarded-for': '192.0.2.201' })).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});
