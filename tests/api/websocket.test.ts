// The GraphQL WebSocket (graphql-ws protocol) accepts a bearer token in the connection payload,
// refuses a connection without one, and closes the sockets of a session once it is revoked.
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  url = `ws://127.0.0.1:${address.port}/graphql`;
});
afterAll(async () => { await t?.close(); });

function connect(connectionParams: Record<string, unknown>) {
  const events: string[] = [];
  const client = createClient({
    url, connectionParams, lazy: false, retryAttempts: 0,
    on: { connected: () => events.push('connected'), closed: () => events.push('closed') },
  });
  return { client, events };
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('GraphQL over WebSocket', () => {
  it('connects with a valid token and delivers entity_updated for the subscribed ids only', async () => {
    const { access_token } = await t.login('admin@demo.city');
    const { client, events } = connect({ authorization: `Bearer ${access_token}` });
    await until(() => events.includes('connected'));
    const received: any[] = [];
    const stop = client.subscribe({ query: 'subscription { entity_updated(entity_ids: ["7"]) { id diff updated_at } }' }, {
      next: (value) => received.push(value.data?.entity_updated), error: () => {}, complete: () => {},
    });
    const tenantId = (await t.get('/tenant', access_token)).body.id;
    await new Promise((r) => setTimeout(r, 200));
    for (const id of [8, 7]) {
      await t.app.live.publishEntityUpdate(tenantId, { id, entity_type_id: 1, diff: { attributes: { dim_level: 40 } }, updated_at: 'now' });
    }
    await until(() => received.length > 0);
    expect(received).toEqual([{ id: '7', diff: { attributes: { dim_level: 40 } }, updated_at: 'now' }]);
    stop();
    await client.dispose();
  });

  it('refuses a connection without a token or with a bad one', async () => {
    for (const params of [{}, { authorization: 'Bearer nope' }]) {
      const { client, events } = connect(params);
      await until(() => events.includes('closed'));
      expect(events).not.toContain('connected');
      await client.dispose();
    }
  });

  it('closes a subscribed socket with 4403 when its session is revoked, and a socket of a revoked session cannot subscribe', async () => {
    const session = await t.login('admin@demo.city');
    const closes: number[] = [];
    const client = createClient({
      url, connectionParams: { authorization: `Bearer ${session.access_token}` }, lazy: false, retryAttempts: 0,
      on: { closed: (event) => closes.push((event as { code: number }).code) },
    });
    const errors: unknown[] = [];
    client.subscribe({ query: 'subscription { entity_updated(entity_ids: ["7"]) { id } }' }, { next: () => {}, error: (error) => errors.push(error), complete: () => {} });
    const other = await t.login('admin@demo.city'); // another session of the same user stays open
    const otherCloses: number[] = [];
    const otherClient = createClient({
      url, connectionParams: { authorization: `Bearer ${other.access_token}` }, lazy: false, retryAttempts: 0,
      on: { closed: (event) => otherCloses.push((event as { code: number }).code) },
    });
    otherClient.subscribe({ query: 'subscription { entity_updated(entity_ids: ["7"]) { id } }' }, { next: () => {}, error: () => {}, complete: () => {} });
    await new Promise((r) => setTimeout(r, 300));

    const loggedOut = await t.send({ method: 'POST', path: '/auth/logout', token: session.access_token, body: { refresh_token: session.refresh_token } });
    expect(loggedOut.status).toBeLessThan(300);
    await until(() => closes.length > 0, 5_000);
    expect(closes).toEqual([4403]);
    await new Promise((r) => setTimeout(r, 300));
    expect(otherCloses).toEqual([]);
    await client.dispose();
    await otherClient.dispose();

    // A socket opened before the revocation was noticed cannot subscribe after it.
    const late = await t.login('admin@demo.city');
    const lateClient = createClient({ url, connectionParams: { authorization: `Bearer ${late.access_token}` }, lazy: false, retryAttempts: 0 });
    await new Promise((r) => setTimeout(r, 300));
    await t.send({ method: 'POST', path: '/auth/logout', token: late.access_token, body: { refresh_token: late.refresh_token } });
    const lateErrors: any[] = [];
    lateClient.subscribe({ query: 'subscription { entity_updated(entity_ids: ["7"]) { id } }' }, { next: () => {}, error: (error) => lateErrors.push(error), complete: () => {} });
    await until(() => lateErrors.length > 0, 5_000);
    expect(lateErrors).toEqual([[expect.objectContaining({ message: 'Session revoked' })]]);
    await lateClient.dispose();
  });
});
