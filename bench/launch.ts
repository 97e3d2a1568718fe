// Starts a real Terrasight server for a benchmark: a fresh demo database (embedded in a
// temporary DATA_DIR, or a throw-away PostgreSQL with --postgres / DATABASE_URL), the built web
// app when dist/ exists. Returns its base URL, a signed-in token and a stop().
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../scripts/postgres.ts';
import { startServerProcess } from '../scripts/serverProcess.ts';

export interface BenchServer { base: string; token: string; database: string; pid: number; stop(): Promise<void> }

export async function launchServer(options: { postgres?: boolean } = {}): Promise<BenchServer> {
  let postgres: ThrowawayPostgres | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  if (options.postgres && !databaseUrl) {
    postgres = await startThrowawayPostgres();
    if (!postgres) throw new Error('--postgres needs DATABASE_URL or Debian\'s postgresql binaries');
    databaseUrl = postgres.url;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'terrasight-bench-'));
  const server = await startServerProcess({
    ...process.env, DATA_DIR: dataDir, MQTT_PORT: '0', SEED: 'demo', SIMULATE: 'off',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing' } : {}),
  });
  const login = await fetch(`${server.base}/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@demo.city', password: 'demo1234' }),
  });
  const { access_token: token } = await login.json() as { access_token: string };
  return {
    base: server.base, token, pid: server.pid, database: databaseUrl ? `PostgreSQL${postgres ? ` ${postgres.version} (throw-away)` : ''}` : 'embedded (PGlite)',
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      await postgres?.stop();
    },
  };
}

/** One line about where and when a benchmark ran, for bench/README.md. */
export const machineLine = () =>
  `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpus()[0]?.model.trim()} · Node ${process.version}`;
