import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { foreground } from '../../../server/foreground.ts';

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

/** Whether the promise has settled once pending callbacks ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => { done = true; });
  if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(0);
  else await new Promise(setImmediate);
  return done;
}

describe('foreground', () => {
  it('lets a background loop straight on while no request is under way', async () => {
    expect(await settled(foreground(250).yieldTo())).toBe(true);
  });

  it('holds it until the requests under way have ended, each counted once however often it ends', async () => {
    const front = foreground(250);
    const first = front.began();
    const second = front.began();
    const waited = front.yieldTo();
    first();
    first();
    expect(await settled(waited)).toBe(false);
    second();
    expect(await settled(waited)).toBe(true);
  });

  it('holds it no longer than its longest wait while requests keep coming', async () => {
    const front = foreground(250);
    front.began();
    const waited = front.yieldTo();
    await vi.advanceTimersByTimeAsync(249);
    expect(await settled(waited)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waited)).toBe(true);
  });
});

describe('countRequestsAsForeground', () => {
  it('counts a request of the web app until it is answered, and neither the device API nor a WebSocket upgrade', async () => {
    vi.useRealTimers();
    const { default: Fastify } = await import('fastify');
    const { countRequestsAsForeground } = await import('../../../server/api/foregroundHooks.ts');
    const app = Fastify();
    const front = foreground(60_000);
    countRequestsAsForeground(app, front);
    let answer!: () => void;
    const held = new Promise<void>((resolve) => { answer = resolve; });
    app.get('/kpi-data', async () => { await held; return { ok: true }; });
    app.get('/api/v1/:token/rpc', async () => { await held; return {}; });
    await app.ready();
    const device = app.inject({ url: '/api/v1/token/rpc' });
    await new Promise(setImmediate);
    expect(await settled(front.yieldTo()), 'a device long poll is not waited for').toBe(true);
    const upgrade = app.inject({ url: '/kpi-data', headers: { upgrade: 'websocket', connection: 'upgrade' } });
    await new Promise(setImmediate);
    expect(await settled(front.yieldTo()), 'an upgrade is not waited for').toBe(true);
    const request = app.inject({ url: '/kpi-data' });
    await new Promise(setImmediate);
    const waited = front.yieldTo();
    expect(await settled(waited)).toBe(false);
    answer();
    expect((await request).statusCode).toBe(200);
    await Promise.all([device, upgrade]);
    expect(await settled(waited)).toBe(true);
    await app.close();
  });
});

