// The server side of the device benchmarks (bench/ingest.ts, bench/engines.ts): where the data
// lives (embedded PGlite in a temporary DATA_DIR, a throw-away PostgreSQL, or DATABASE_URL), a
// connection to it, a fresh `node server/main.ts` process on it (SEED=demo, SIMULATE=off, free
// ports) killed if the benchmark fails half-way, the CPU and memory it and the machine use, the
// devices (the demo's and more made by SQL), and the figures' formatting.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { lockDataDir } from '../server/db/dataDirLock.ts';
import { PGLITE_EXTENSIONS } from '../server/db/pgliteExtensions.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../scripts/postgres.ts';
import { freePort, serverArguments } from '../scripts/serverProcess.ts';

const root = join(import.meta.dirname, '..');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const log = (line: string) => console.error(`[bench ${((performance.now()) / 1000).toFixed(1)} s] ${line}`);

// ---------------------------------------------------------------------------------------------
// Where the data lives, and a connection to it while no server holds it.

export interface Target { label: string; env: NodeJS.ProcessEnv; dataDir: string; databaseUrl?: string; cleanup(): Promise<void> }

/** `name` tells the temporary data directories apart; `usePostgres` asks for a throw-away PostgreSQL (DATABASE_URL wins). */
export async function makeTarget(name: string, usePostgres: boolean): Promise<Target> {
  let postgres: ThrowawayPostgres | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  if (usePostgres && !databaseUrl) {
    postgres = await startThrowawayPostgres();
    if (!postgres) throw new Error('--postgres needs DATABASE_URL or Debian\'s postgresql binaries');
    databaseUrl = postgres.url;
  }
  const dataDir = mkdtempSync(join(tmpdir(), `terrasight-bench-${name}-`));
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  return {
    label: databaseUrl ? `PostgreSQL${postgres ? ` ${postgres.version} (throw-away)` : ''}` : 'embedded (PGlite)',
    env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl, JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing' } : {}) },
    dataDir, databaseUrl,
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      await postgres?.stop();
    },
  };
}

export interface Sql { query<T>(text: string): Promise<T[]>; close(): Promise<void> }

/** The database of `target`, opened by this process (the server must be stopped for PGlite). */
export async function openSql(target: Target): Promise<Sql> {
  if (target.databaseUrl) {
    const { default: pg } = await import('pg');
    pg.types.setTypeParser(20, Number); // count(*)
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    return { query: async <T>(text: string) => (await client.query(text)).rows as T[], close: () => client.end() };
  }
  const release = lockDataDir(target.dataDir);
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(target.dataDir, { extensions: PGLITE_EXTENSIONS });
  return {
    query: async <T>(text: string) => (await db.query<T>(text)).rows,
    async close() {
      await db.close();
      release();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The server process.

/** Servers started and not yet stopped: killed if the benchmark fails half-way. */
export const liveServers = new Set<() => void>();
process.once('exit', () => {
  for (const kill of liveServers) kill();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export interface Server { pid: number; base: string; mqttUrl: string; alive(): boolean; stop(): Promise<void>; kill9(): Promise<void>; startedInMs: number }

/**
 * Starts `node server/main.ts` on `target` and waits until it answers (and, when seeding, until the
 * demo history is written); `nodeOptions` after npm start's (a larger heap for many devices).
 */
export async function startServer(target: Target, waitForHistory = false, nodeOptions: string[] = []): Promise<Server> {
  const started = performance.now();
  const [port, mqttPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, serverArguments(nodeOptions), {
    cwd: root, stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...target.env, PORT: String(port), MQTT_PORT: String(mqttPort), HOST: '127.0.0.1', SEED: 'demo', SIMULATE: 'off' },
  });
  let history = false;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (/points of demo history/.test(line)) history = true;
  });
  const kill = () => child.kill('SIGKILL');
  liveServers.add(kill);
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    liveServers.delete(kill);
    resolve();
  }));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const base = `http://127.0.0.1:${port}`;
  const server: Server = {
    pid: child.pid!, base, mqttUrl: `mqtt://127.0.0.1:${mqttPort}`, alive, startedInMs: 0,
    async stop() {
      if (alive()) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
  };
  for (const deadline = Date.now() + 180_000; ;) {
    if (!alive()) throw new Error(`The Terrasight server exited (${child.exitCode ?? child.signalCode}) before answering.`);
    const answers = await fetch(`${base}/api/docs/json`).then((r) => r.ok, () => false);
    if (answers && (history || !waitForHistory)) break;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error('The Terrasight server did not start.');
    }
    await sleep(100);
  }
  server.startedInMs = performance.now() - started;
  return server;
}

/** VmRSS / VmHWM (MB) and CPU time (s) of a process, from /proc. */
export function processFigures(pid: number): { rssMb: number; hwmMb: number; cpuS: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024, cpuS: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return undefined;
  }
}

/** Busy and total CPU ticks of the whole machine, from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - fields[3] - fields[4], total };
}

/** Samples the server's RSS every second; measures the CPU it, this process and the rest of the machine used. */
export function watchServer(server: Server) {
  const start = processFigures(server.pid);
  const machineStart = machineTicks();
  const benchStart = process.cpuUsage();
  const startedAt = performance.now();
  let maxRssMb = 0;
  let lastHwm = 0;
  let cpuS = 0;
  const sample = () => {
    const figures = processFigures(server.pid);
    if (!figures) return;
    maxRssMb = Math.max(maxRssMb, figures.rssMb);
    lastHwm = figures.hwmMb;
    cpuS = figures.cpuS - (start?.cpuS ?? 0);
  };
  const timer = setInterval(sample, 1000);
  return {
    /**
     * Stops sampling: max sampled RSS, the kernel's high-water mark, and the cores used on average
     * by the server, by this process and by every other process (noisy neighbours; with
     * PostgreSQL, the database server too).
     */
    finish() {
      sample();
      clearInterval(timer);
      const seconds = (performance.now() - startedAt) / 1000;
      const machine = machineTicks();
      const machineCores = (machine.busy - machineStart.busy) / 100 / seconds;
      const bench = process.cpuUsage(benchStart);
      const benchCores = (bench.user + bench.system) / 1e6 / seconds;
      const serverCores = cpuS / seconds;
      return { idleRssMb: start?.rssMb ?? NaN, maxRssMb, hwmMb: lastHwm, serverCores, benchCores, otherCores: Math.max(0, machineCores - serverCores - benchCores) };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Devices: the demo's, and more made by SQL when there are more clients than those.

export interface Device { id: number; tenant_id: string; access_token: string }

const DEVICE_QUERY = 'SELECT id, tenant_id, access_token FROM entities WHERE access_token IS NOT NULL AND NOT is_gateway ORDER BY id';

export async function ensureDevices(db: Sql, count: number): Promise<Device[]> {
  let devices = await db.query<Device>(DEVICE_QUERY);
  const missing = count - devices.length;
  if (missing > 0) {
    // Siblings of the first demo device: same tenant, type and parent; a token of their own.
    await db.query(`
      WITH template AS (SELECT * FROM entities WHERE id = ${devices[0].id}),
      made AS (
        INSERT INTO entities (tenant_id, entity_type_id, parent_id, name, attributes, level, tree_path)
        SELECT tenant_id, entity_type_id, parent_id, json_build_object('en', 'Bench device ' || n), '{}'::json, level, '' FROM template, generate_series(1, ${missing}) n
        RETURNING id, parent_id
      )
      UPDATE entities e SET tree_path = coalesce((SELECT p.tree_path || '.' FROM entities p WHERE p.id = made.parent_id), '') || e.id
      FROM made WHERE e.id = made.id`);
    devices = await db.query<Device>(DEVICE_QUERY);
  }
  return devices.slice(0, count);
}

/** A fresh demo database with its history written, and `count` devices; no server running. */
export async function prepare(target: Target, count: number): Promise<Device[]> {
  log(`seeding a fresh demo database (${target.label})…`);
  const seeding = await startServer(target, true);
  await seeding.stop();
  const db = await openSql(target);
  try {
    const devices = await ensureDevices(db, count);
    if (devices.length < count) throw new Error(`only ${devices.length} devices`);
    return devices;
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Reporting.

export const percentile = (sorted: ArrayLike<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
export const fmt = (n: number, digits = 0) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const latencyLine = (values: number[]) => {
  const sorted = Float64Array.from(values).sort();
  return [50, 95, 99].map((p) => fmt(percentile(sorted, p), 1)).join(' / ');
};
export const cores = (use: { serverCores: number; benchCores: number; otherCores: number }) =>
  `${fmt(use.serverCores, 2)} / ${fmt(use.benchCores, 2)} / ${fmt(use.otherCores, 2)}`;
