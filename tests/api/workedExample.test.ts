// The worked examples of docs/resources.md, replayed as a developer would: the documented diffs are
// applied to a copy of the project (each touching the number of files the text says), the one
// command writes the migrations, the copy's server starts on a fresh database and the new field and
// the new model answer over REST and GraphQL, in their tenant only.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, JWT_SECRET, PASSWORD, usingPostgres } from './harness.ts';

const root = join(import.meta.dirname, '..', '..');
const copy = mkdtempSync(join(tmpdir(), 'terrasight-example-'));
const doc = readFileSync(join(root, 'docs', 'resources.md'), 'utf8');
let server: ChildProcess | undefined;
let postgres: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
let base = '';

/** A section of the doc (from its `## ` heading to the next) whose heading starts with `title`. */
const section = (title: string) => {
  const start = doc.indexOf(`## ${title}`);
  expect(start, `docs/resources.md has a section "${title}"`).toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 3);
  return doc.slice(start, end < 0 ? undefined : end);
};
const diffOf = (text: string) => /```diff\n([\s\S]*?)```/.exec(text)![1];
const statedFiles = (text: string) => Number(/\*\*(\d+) files?\*\*/.exec(text)![1]);
const filesOf = (diff: string) => diff.match(/^diff --git /gm)?.length ?? 0;

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: copy, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stdout}\n${result.stderr}`);
  return result.stdout;
}
const apply = (diff: string) => {
  writeFileSync(join(copy, 'example.diff'), diff);
  run('git', ['apply', 'example.diff']);
  rmSync(join(copy, 'example.diff'));
};
const migrations = () => readdirSync(join(copy, 'server', 'db', 'migrations')).filter((name) => name.endsWith('.sql')).sort();
/** `npm run db:generate` in the copy: the one migration it wrote. */
function generate(): string {
  const before = migrations();
  run(process.execPath, [join(copy, 'node_modules', 'drizzle-kit', 'bin.cjs'), 'generate']);
  const written = migrations().filter((name) => !before.includes(name));
  expect(written).toHaveLength(1);
  return readFileSync(join(copy, 'server', 'db', 'migrations', written[0]), 'utf8');
}

const freePort = () => new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

async function call(method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}${path}`, {
    method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() as any };
}
const login = async (email: string) => (await call('POST', '/auth/login', { email, password: PASSWORD })).body.access_token as string;
const graphql = async (query: string, token: string) => (await call('POST', '/graphql', { query }, token)).body;

beforeAll(async () => {
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    try {
      cpSync(join(root, file), join(copy, file));
    } catch { /* a file deleted but not yet committed */ }
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
}, 120_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((resolve) => (server && server.exitCode === null ? server.once('exit', resolve) : resolve(undefined)));
  await postgres?.drop();
  rmSync(copy, { recursive: true, force: true });
});

describe('the worked examples of docs/resources.md', () => {
  it('adding a field is one file and one command', () => {
    const text = section('Add a field');
    const diff = diffOf(text);
    expect(filesOf(diff)).toBe(statedFiles(text));
    expect(statedFiles(text)).toBe(1);
    apply(diff);
    const migration = generate();
    expect(migration).toContain('ALTER TABLE "watchers" ADD COLUMN "note" text');
    expect(migration).toContain('CHECK (char_length("note") <= 200)');
  }, 120_000);

  it('adding a model is the files the text counts and one command', () => {
    const text = section('Add a model');
    const diff = diffOf(text);
    expect(filesOf(diff)).toBe(statedFiles(text));
    apply(diff);
    const migration = generate();
    expect(migration).toContain('CREATE TABLE "memos"');
    expect(migration).toContain('CREATE POLICY "tenant_isolation" ON "memos"');
  }, 120_000);

  it('starts the copy, which serves the new field and the new model in their tenant', async () => {
    postgres = usingPostgres() ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL!) : undefined;
    const port = await freePort();
    const where = postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: join(copy, 'data') };
    server = spawn(process.execPath, [join(copy, 'server', 'main.ts')], {
      cwd: copy,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: '0', SEED: 'demo', DEMO_HISTORY_DAYS: '1', SIMULATE: 'off', JWT_SECRET, ...where },
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      server!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk;
        if (output.includes('Terrasight is running')) resolve();
      });
      server!.stderr!.on('data', (chunk: Buffer) => { output += chunk; });
      server!.once('exit', (code) => reject(new Error(`the server stopped (${code}): ${output}`)));
    });
    base = `http://127.0.0.1:${port}`;
    const city = await login('admin@demo.city');
    const facility = await login('admin@demo.facility');

    const watcher = await call('POST', '/create-watcher', {
      input: { name: 'Noted watcher', query: { key: 'power', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 5 }, note: 'Check the fuse first' },
    }, city);
    expect(watcher.status).toBe(200);
    expect(watcher.body.note).toBe('Check the fuse first');
    const tooLong = await call('POST', '/update-watcher', { input: { id: watcher.body.id, note: 'x'.repeat(201) } }, city);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].field).toBe('input.note');
    const listed = await call('GET', '/watcher-list?search=Noted', undefined, city);
    expect(listed.body.map((row: any) => row.note)).toEqual(['Check the fuse first']);
    const viaGraphql = await graphql(`{ watcher(id: ${watcher.body.id}) { name note } }`, city);
    expect(viaGraphql.data.watcher).toEqual({ name: 'Noted watcher', note: 'Check the fuse first' });

    const memo = await call('POST', '/create-memo', { input: { title: 'Night shift', body: 'Lamps on Main Street flicker.' } }, city);
    expect(memo.status).toBe(200);
    expect((await call('GET', '/memo-list', undefined, city)).body.map((row: any) => row.title)).toEqual(['Night shift']);
    expect((await graphql('{ memo_list { title body } }', city)).data.memo_list).toEqual([{ title: 'Night shift', body: 'Lamps on Main Street flicker.' }]);
    expect((await call('GET', '/memo-list', undefined, facility)).body).toEqual([]);
    expect((await call('POST', '/update-memo', { input: { id: memo.body.id, title: 'Taken' } }, facility)).status).toBe(404);
    expect((await call('POST', '/create-memo', { input: { title: '' } }, city)).status).toBe(400);
  }, 180_000);
});
