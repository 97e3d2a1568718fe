// Security headers on every answer (the CSP allowing exactly the base map's origins), HSTS only
// when configured, precompressed assets, compressed JSON, and caching rules for the built web app.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseMapFrom } from '../../server/config.ts';
import { startTestApp, type TestApp } from './harness.ts';

const webDir = mkdtempSync(join(tmpdir(), 'terrasight-web-'));
const script = `console.log(${JSON.stringify('terrasight '.repeat(300))});`;
let t: TestApp;
let token: string;
beforeAll(async () => {
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Terrasight</title>');
  writeFileSync(join(webDir, 'assets', 'index-Ab12Cd34.js'), script);
  writeFileSync(join(webDir, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(script));
  writeFileSync(join(webDir, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(script));
  t = await startTestApp({ webDir, baseMap: baseMapFrom('openfreemap') });
  token = (await t.login('admin@demo.city')).access_token;
});
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

const raw = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
/** The CSP's directives by name. */
const directives = (csp: string) => Object.fromEntries(csp.split(';').map((part) => part.trim()).filter(Boolean)
  .map((part) => [part.split(' ')[0], part.slice(part.indexOf(' ') + 1)]));

describe('security headers', () => {
  it.each([
    ['an API answer', '/tenant', true],
    ['index.html', '/', false],
    ['an app route (history fallback)', '/studio/zones', false],
    ['a JSON 404', '/no-such-endpoint', false],
  ])('are on %s', async (_case, url, signedIn) => {
    const response = await raw(url, { accept: url === '/no-such-endpoint' ? 'application/json' : 'text/html', ...(signedIn ? { authorization: `Bearer ${token}` } : {}) });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("worker-src 'self' blob:");
    expect(directives(csp)).toMatchObject({
      // board components' images, videos and web pages: https: (web pages narrowed by the web app to the tenant's list)
      'img-src': "'self' data: blob: https: https://tiles.openfreemap.org",
      'media-src': "'self' blob: https:",
      'frame-src': "'self' https:",
      'font-src': "'self' data: https://tiles.openfreemap.org",
      'connect-src': "'self' blob: https://tiles.openfreemap.org",
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it.each([
    ['the offline map (the default)', {}, ''],
    ['the offline map, MAP_TILE_HOSTS notwithstanding', { baseMap: baseMapFrom('offline'), mapTileHosts: ['https://tiles.example.com'] }, ''],
    ['MapTiler', { baseMap: baseMapFrom('maptiler:Ab12Cd34Ef56Gh78Ij90') }, ' https://api.maptiler.com'],
    ['Google', { baseMap: baseMapFrom('google:AIzaSyA1b2C3d4E5f6G7h8I9j0K-_lMnOpQrStU') }, ' https://tile.googleapis.com'],
    ['a PMTiles archive', { baseMap: baseMapFrom('pmtiles://https://cdn.example.org:8443/city.pmtiles') }, ' https://cdn.example.org:8443'],
    ['a style with MAP_TILE_HOSTS', { baseMap: baseMapFrom('https://maps.example.com/style.json'), mapTileHosts: ['https://fonts.example.com', 'https://maps.example.com'] },
      ' https://maps.example.com https://fonts.example.com'],
  ])('allow exactly the origins of %s', async (_case, options, origins) => {
    const other = await startTestApp({ db: t.db, ...options });
    try {
      const csp = String((await other.app.inject({ method: 'GET', url: '/api/docs/json' })).headers['content-security-policy']);
      expect(directives(csp)).toMatchObject({
        'img-src': `'self' data: blob: https:${origins}`,
        'font-src': `'self' data:${origins}`,
        'connect-src': `'self' blob:${origins}`,
        'default-src': "'self'",
        'script-src': "'self'",
      });
    } finally {
      await other.close();
    }
  });

  it('sends HSTS when TLS is configured', async () => {
    const tls = await startTestApp({ db: t.db, hsts: true });
    try {
      expect((await tls.app.inject({ method: 'GET', url: '/api/docs/json' })).headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      await tls.close();
    }
  });
});

describe('compression and caching', () => {
  it('sends the precompressed brotli or gzip file, cached for good', async () => {
    const br = await raw('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await raw('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await raw('/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('revalidates index.html, also from the history fallback', async () => {
    expect((await raw('/', { accept: 'text/html' })).headers['cache-control']).toBe('no-cache');
    expect((await raw('/dashboard/entity/5', { accept: 'text/html' })).headers['cache-control']).toBe('no-cache');
  });

  it('compresses large JSON answers for clients that accept it', async () => {
    const response = await raw('/entity-list', { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(response.rawPayload).toString()).length).toBe(60);
    const small = await raw('/tenant', { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
