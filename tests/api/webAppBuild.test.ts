// The subscription `web_app_build` tells open tabs which build of the web app the server serves:
// at once when subscribed, and again within seconds when a deploy writes a new build.json. A
// half-written or hostile build file announces nothing; the subscription takes no arguments.
import { createClient, type Client } from 'graphql-ws';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../support/devices.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let url: string;
const webDir = mkdtempSync(join(tmpdir(), 'terrasight-web-'));
const clients: Client[] = [];
const writeBuild = (content: string) => writeFileSync(join(webDir, 'build.json'), content);

beforeAll(async () => {
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Terrasight</title>');
  writeBuild('{"build_id":"20261126T100000Z-aaaaaa"}\n');
  t = await startTestApp({ webDir });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

async function subscribe(query: string) {
  const { access_token: token } = await t.login('operator@demo.city');
  const client = createClient({ url, connectionParams: { authorization: `Bearer ${token}` }, lazy: false, retryAttempts: 0 });
  clients.push(client);
  const received: unknown[] = [];
  client.subscribe({ query }, { next: (value) => received.push(value.data ?? value.errors), error: (error) => received.push(error), complete: () => {} });
  return received;
}

it('tells a subscriber the build served at once, and each new one a deploy writes', { timeout: 20_000 }, async () => {
  const builds = await subscribe('subscription { web_app_build { build_id } }');
  await until(() => builds.length === 1);
  expect(builds).toEqual([{ web_app_build: { build_id: '20261126T100000Z-aaaaaa' } }]);

  writeBuild('{"build_id": '); // being written
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  writeBuild('{"build_id":"<script>alert(1)</script>"}');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(builds).toHaveLength(1);

  writeBuild('{"build_id":"20261126T110000Z-bbbbbb"}\n');
  await until(() => builds.length === 2, 5_000);
  expect(builds[1]).toEqual({ web_app_build: { build_id: '20261126T110000Z-bbbbbb' } });
});

it('takes no arguments', async () => {
  const answers = await subscribe('subscription { web_app_build(all: true) { build_id } }');
  await until(() => answers.length === 1);
  expect(answers).toEqual([[expect.objectContaining({ message: expect.stringMatching(/^Unknown argument "all"/) })]]);
});
