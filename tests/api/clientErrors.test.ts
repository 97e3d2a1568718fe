// POST /client-errors: the web app's error reports reach the server log, open before sign-in;
// anything but a small report of the schema's fields is a 400 that logs nothing, and one address
// is told to wait after 30 a minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ERROR_REPORTS_PER_ADDRESS } from '../../src/schemas/clientError.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
  const stream = { write: (line: string) => { logged.push(JSON.parse(line)); } };
  t = await startTestApp({ logger: { level: 'warn', stream } });
});
afterAll(async () => { await t?.close(); });

const report = { kind: 'error', message: 'TypeError: x is undefined', source: 'index-abc.js', line: 10, column: 4, route: '/dashboard/entity/:id', build: 'b1' };
const post = (body: unknown, remoteAddress = '10.0.0.1') => t.send({ method: 'POST', path: '/client-errors', body, remoteAddress, headers: { 'content-type': 'application/json' } });

describe('browser error reports', () => {
  it('are written to the server log at warn level, without a token', async () => {
    const answer = await post(report);
    expect(answer.status).toBe(204);
    expect(logged.find((line) => line.msg === 'browser error')).toMatchObject({ level: 40, clientError: report });
  });

  it('are logged without what a sender put in that could name someone or open a door, whoever sent them', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
    const secrets = [jwt, 'tsa_4f9a0c2b7d1e8f3a6b5c9d0e', 'jane.doe@example.org', '4111 1111 1111 1111'];
    const answer = await post({ ...report, message: `Failed with ${secrets.join(' and ')}`, source: 'jane.doe@example.org', route: `/x/${secrets[1]}` }, '10.0.0.5');
    expect(answer.status).toBe(204);
    const line = logged.filter((entry) => entry.msg === 'browser error').at(-1)!;
    const text = JSON.stringify(line);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(line.clientError).toMatchObject({ message: 'Failed with <token> and <token> and <email> and <number>', source: '<email>', route: '/x/<token>' });
  });

  it('refuse what is not a small report of the schema\'s fields, and log nothing of it', async () => {
    const before = logged.filter((line) => line.msg === 'browser error').length;
    for (const [body, status] of [
      [{ ...report, user: 'admin@demo.city' }, 400],
      [{ ...report, kind: 'panic' }, 400],
      [{ ...report, message: 'x'.repeat(501) }, 400],
      [{ ...report, message: 'a\u0000b' }, 400],
      [{ ...report, build: 'b'.repeat(101) }, 400],
      [{ kind: 'error' }, 400],
      [{ ...report, source: 'y'.repeat(5_000) }, 400],
      [{ ...report, message: 'y'.repeat(200_000) }, 413],
      ['not json', 400],
    ] as const) {
      const answer = await post(body, '10.0.0.2');
      expect(answer.status, JSON.stringify(body).slice(0, 40)).toBe(status);
      expect(JSON.stringify(answer.body)).not.toMatch(/stack|node_modules|\/work\//);
    }
    expect(logged.filter((line) => line.msg === 'browser error').length).toBe(before);
  });

  it(`tell an address to wait after ${CLIENT_ERROR_REPORTS_PER_ADDRESS} a minute; another address goes on`, async () => {
    for (let i = 0; i < CLIENT_ERROR_REPORTS_PER_ADDRESS; i++) expect((await post(report, '10.0.0.3')).status).toBe(204);
    const refused = await post(report, '10.0.0.3');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(report, '10.0.0.4')).status).toBe(204);
  });
});
