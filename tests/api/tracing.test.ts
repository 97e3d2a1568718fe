// Request traces exported with OpenTelemetry to a collector (a real HTTP server speaking OTLP/JSON
// here): a span per request named by its route pattern, with its status and without the query;
// a sample of 0 sends none.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from './harness.ts';

interface ExportedSpan { name: string; kind: number; attributes: { key: string; value: Record<string, unknown> }[]; status?: { code?: number } }
let collector: Server;
let endpoint: string;
const exported: ExportedSpan[] = [];

beforeAll(async () => {
  collector = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => { body += chunk; });
    request.on('end', () => {
      const payload = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[] };
      for (const resource of payload.resourceSpans) for (const scope of resource.scopeSpans) exported.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}/v1/traces`;
});
afterAll(async () => { await new Promise((resolve) => collector.close(resolve)); });

const attribute = (span: ExportedSpan, key: string) => Object.values(span.attributes.find((entry) => entry.key === key)?.value ?? {})[0];

describe('request traces', () => {
  it('are exported as a span per request: route pattern, method, status, no query', async () => {
    const t = await startTestApp({ tracing: { endpoint, sampleRate: 1 } });
    const token = (await t.login('admin@demo.city')).access_token;
    expect((await t.get('/watcher-list?search=secret-word', token)).status).toBe(200);
    expect((await t.get('/entity/999999999', token)).status).toBe(404);
    await t.close(); // flushes
    const list = exported.find((span) => span.name === 'GET /watcher-list');
    expect(list).toBeDefined();
    expect(attribute(list!, 'http.response.status_code')).toBe(200);
    expect(attribute(list!, 'url.path')).toBe('/watcher-list');
    expect(JSON.stringify(exported)).not.toContain('secret-word');
    const missing = exported.find((span) => span.name === 'GET /entity/:id');
    expect(attribute(missing!, 'http.response.status_code')).toBe(404);
    expect(exported.some((span) => span.name === 'POST /auth/login')).toBe(true);
  });

  it('a sample of 0 exports nothing', async () => {
    exported.length = 0;
    const t = await startTestApp({ tracing: { endpoint, sampleRate: 0 } });
    await t.login('admin@demo.city');
    await t.close();
    expect(exported).toEqual([]);
  });
});
