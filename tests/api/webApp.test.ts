// The built web app is served with a history fallback that answers only HTML GETs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
const webDir = mkdtempSync(join(tmpdir(), 'terrasight-web-'));
beforeAll(async () => {
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Terrasight</title>');
  writeFileSync(join(webDir, 'robots.txt'), 'User-agent: *');
  t = await startTestApp({ webDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml' };

describe('web app and history fallback', () => {
  it('answers index.html for app routes opened in a browser', async () => {
    for (const url of ['/', '/studio/zones?x=1', '/dashboard/entity/5/detail', '/no-such-page']) {
      const response = await t.app.inject({ method: 'GET', url, headers: html });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<title>Terrasight</title>');
    }
  });

  it('serves static files', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.body).toBe('User-agent: *');
  });

  it('never hides an API route or answers non-HTML requests with the app', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/entity-list', headers: html })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/studio/zones', headers: { accept: 'application/json' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/studio/zones', headers: html })).statusCode).toBe(404);
  });

  it('publishes the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of ['/auth/login', '/auth/refresh', '/entity-list', '/entity/{id}', '/update-password', '/watcher-list']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});
