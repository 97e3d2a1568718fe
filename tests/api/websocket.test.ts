// The GraphQL WebSocket (graphql-ws protocol) accepts a bearer token in the connection payload
// and refuses a connection without one.
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
});
