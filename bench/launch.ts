// Starts a real Terrasight server for a benchmark: a fresh demo database (embedded in a
// temporary DATA_DIR, or a throw-away PostgreSQL with --postgres / DATABASE_URL), the built web
// app when dist/ exists, a free port. Returns its base URL, a signed-in token and a stop().
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../scripts/postgres.ts';

export interface BenchServer { base: string; token: string; database: string; stop(): Promise<void> }

const root = join(import.meta.dirname, '..');

const freePort = () => new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

export async function launchServer(options: { postgres?: boolean } = {}): Promise<BenchServer> {
  let postgres: ThrowawayPostgres | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  if (options.postgres && !databaseUrl) {
    postgres = await startThrowawayPostgres();
    if (!postgres) throw new Error('--postgres needs DATABASE_URL or Debian\'s postgresql binaries');
    databaseUrl = postgres.url;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'terrasight-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(root, 'server', 'main.ts')], {
    cwd: root, stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, MQTT_PORT: '0', SEED: 'demo', SIMULATE: 'off',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing' } : {}),
    },
  });
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/docs/json`).then((r) => r.ok, () => false)) break;
    if (i > 1200 || server.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@demo.city', password: 'demo1234' }),
  });
  const { access_token: token } = await login.json() as { access_token: string };
  return {
    base, token, database: databaseUrl ? `PostgreSQL${postgres ? ` ${postgres.version} (throw-away)` : ''}` : 'embedded (PGlite)',
    async stop() {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
      await postgres?.stop();
    },
  };
}

/** One line about where and when a benchmark ran, for bench/README.md. */
export const machineLine = () =>
  `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpus()[0]?.model.trim()} · Node ${process.version}`;
