// GET /health as a load balancer calls it: no token, alive and ready while the database answers.
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
