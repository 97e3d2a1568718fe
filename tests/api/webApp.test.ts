// The built web app is served with a history fallback that answers only HTML GETs; its files
// go out as the brotli/gzip copies the build wrote once, with their caching headers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../scripts/vitePrecompress.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
const webDir = mkdtempSync(join(tmpdir(), 'terrasight-web-'));
const indexHtml = '<!doctype html><title>Terrasight</title>';
const favicon = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f6fb2"/></svg>';
const manifest = JSON.stringify({ name: 'Terrasight City', icons: [{ src: '/branding/city/favicon.svg', type: 'image/svg+xml', sizes: 'any' }] });
const script = `console.log(${JSON.stringify('terrasight '.repeat(300))});`;
const lateNote = 'written after the build, without compressed copies '.repeat(40);
beforeAll(async () => {
  mkdirSync(join(webDir, 'assets'));
  mkdirSync(join(webDir, 'branding', 'city'), { recursive: true });
  writeFileSync(join(webDir, 'index.html'), indexHtml);
  writeFileSync(join(webDir, 'robots.txt'), 'User-agent: *');
  writeFileSync(join(webDir, 'branding', 'city', 'favicon.svg'), favicon);
  writeFileSync(join(webDir, 'branding', 'city', 'manifest.webmanifest'), manifest);
  writeFileSync(join(webDir, 'assets', 'index-Ab12Cd34.js'), script);
  precompressDirectory(webDir); // what the build does
  writeFileSync(join(webDir, 'late.txt'), lateNote);
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

describe('static files: compressed once, cached and revalidated', () => {
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const decode = { br: brotliDecompressSync, gzip: gunzipSync };
  const anything = '*/*';
  const page = 'text/html,application/xhtml+xml';
  // [case, url, Accept, content, Content-Type, Cache-Control]
  const files = [
    ['a branding favicon', '/branding/city/favicon.svg', anything, favicon, /^image\/svg\+xml$/, 'no-cache'],
    ['a branding manifest', '/branding/city/manifest.webmanifest', anything, manifest, /^application\/manifest\+json/, 'no-cache'],
    ['a hashed bundle', '/assets/index-Ab12Cd34.js', anything, script, /^(text|application)\/javascript; charset=utf-8$/, 'public, max-age=31536000, immutable'],
    ['index.html', '/', anything, indexHtml, /^text\/html; charset=utf-8$/, 'no-cache'],
    ['index.html for an app route', '/studio/zones', page, indexHtml, /^text\/html; charset=utf-8$/, 'no-cache'],
  ] as const;

  it.each(files.flatMap(([name, ...rest]) => (['br', 'gzip'] as const).map((encoding) => [`${name} (${encoding})`, encoding, ...rest] as const)))(
    'sends %s compressed as asked, with its headers', async (_case, encoding, url, accept, content, type, cacheControl) => {
      const response = await get(url, { accept, 'accept-encoding': encoding === 'br' ? 'br, gzip' : 'gzip' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(decode[encoding](response.rawPayload).toString()).toBe(content);
      expect(response.headers['content-type']).toMatch(type);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe(cacheControl);
      // a file of known length, not a stream compressed for this request
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

  it.each(files.map(([name, url, accept]) => [name, url, accept] as const))('sends %s as the same bytes every time, and 304 to a matching If-None-Match', async (_case, url, accept) => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const headers = { accept, 'accept-encoding': encoding };
      const first = await get(url, headers);
      const again = await get(url, headers);
      expect(again.rawPayload.equals(first.rawPayload), encoding).toBe(true);
      expect(first.headers.etag, encoding).toBeTruthy();
      expect(again.headers.etag).toBe(first.headers.etag);
      const unchanged = await get(url, { ...headers, 'if-none-match': String(first.headers.etag) });
      expect(unchanged.statusCode, encoding).toBe(304);
      expect(unchanged.rawPayload.length).toBe(0);
      expect(unchanged.headers['cache-control']).toBe(first.headers['cache-control']);
    }
    // each encoding is its own representation, with its own validator
    const etags = await Promise.all(['br', 'gzip', 'identity'].map(async (encoding) => (await get(url, { accept, 'accept-encoding': encoding })).headers.etag));
    expect(new Set(etags).size).toBe(3);
  });

  it('sends a file without compressed copies as it is rather than compressing it per request', async () => {
    const response = await get('/late.txt', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(lateNote);
    expect(response.headers['cache-control']).toBe('no-cache');
  });
});
