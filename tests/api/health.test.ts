// GET /health as a load balancer calls it: no token, alive and ready while the database answers and
// the instance is not draining before a stop.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t?.close(); });

it('answers 200, alive and ready, without a token, never cached', async () => {
  const answer = await t.app.inject({ method: 'GET', url: '/health' });
  expect(answer.statusCode).toBe(200);
  expect(answer.json()).toEqual({ alive: true, ready: true });
  expect(answer.headers['cache-control']).toBe('no-store');
});

it('reads as not ready once the instance drains before stopping, while it still serves requests', async () => {
  const { access_token: token } = await t.login('admin@demo.city');
  t.app.drain();
  const health = await t.app.inject({ method: 'GET', url: '/health' });
  expect(health.statusCode).toBe(503);
  expect(health.json()).toEqual({ alive: true, ready: false });
  const tenant = await t.app.inject({ method: 'GET', url: '/tenant', headers: { authorization: `Bearer ${token}` } });
  expect(tenant.statusCode).toBe(200);
});
