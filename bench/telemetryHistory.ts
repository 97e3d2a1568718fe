// The KPI benchmarks' data (bench/kpi.ts, bench/charts.ts): a fresh demo database (embedded PGlite
// in a temporary directory, or a throw-away PostgreSQL with --postgres / DATABASE_URL), devices
// of Demo City made by plain SQL, and their history written through the real telemetry writer
// (raw points, roll-ups, latest values), with progress on stderr.
import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../scripts/postgres.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { seedDemoIfEmpty } from '../server/seed/demoSeed.ts';
import type { TelemetryPoint } from '../server/telemetry/telemetryPoint.ts';
import { telemetryWriter } from '../server/telemetry/telemetryWriter.ts';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

export const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

export interface BenchDatabase {
  db: Database;
  /** Which database, for the printed figures. */
  database: string;
  /** Demo City's id. */
  tenantId: string;
  close(): Promise<void>;
}

/** A freshly seeded demo database: embedded, or PostgreSQL when `postgres` (or DATABASE_URL). */
export async function openBenchDatabase(postgres: boolean, prefix: string): Promise<BenchDatabase> {
  let throwaway: ThrowawayPostgres | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  if (postgres && !databaseUrl) {
    throwaway = await startThrowawayPostgres();
    if (!throwaway) throw new Error('--postgres needs DATABASE_URL or Debian\'s postgresql binaries');
    databaseUrl = throwaway.url;
  }
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const db = await openDatabase({ databaseUrl, dataDir });
  await seedDemoIfEmpty(db);
  const [{ id: tenantId }] = await db.systemQuery<{ id: string }>(sql`SELECT id FROM tenants WHERE name = 'Demo City'`);
  return {
    db, tenantId,
    database: databaseUrl ? `PostgreSQL${throwaway ? ` ${throwaway.version} (throw-away)` : ''}` : 'embedded (PGlite)',
    async close() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
      await throwaway?.stop();
    },
  };
}

/** A device type with `count` devices of the tenant, by plain SQL. */
export async function benchDevices(db: Database, tenantId: string, name: string, count: number): Promise<{ typeId: number; ids: number[] }> {
  const [type] = await db.systemQuery<{ id: number }>(sql`INSERT INTO entity_types (tenant_id, category, name) VALUES (${tenantId}, 'bench', ${name}) RETURNING id`);
  const rows = await db.systemQuery<{ id: number }>(sql`INSERT INTO entities (tenant_id, entity_type_id, name, level)
    SELECT ${tenantId}, ${type.id}, jsonb_build_object('en', ${name} || ' ' || g), 2 FROM generate_series(1, ${count}) g RETURNING id`);
  return { typeId: type.id, ids: rows.map((row) => row.id) };
}

/** A temperature-like point of `key` every `stepMs` for `ids` over [from, to), a day at a time through one writer. */
export async function writeHistory(db: Database, tenantId: string, label: string, ids: number[], from: number, to: number, stepMs = MINUTE) {
  const writer = telemetryWriter(db);
  const total = ids.length * Math.ceil((to - from) / stepMs);
  const started = performance.now();
  const commits: Promise<void>[] = [];
  let queued = 0;
  let lastReport = started;
  for (let day = from; day < to; day += DAY) {
    // a device's day per message: the writer gathers messages into its batches
    for (const entityId of ids) {
      const points: TelemetryPoint[] = [];
      for (let ts = day; ts < Math.min(day + DAY, to); ts += stepMs) {
        const value = Math.round((20 + 6 * Math.sin((ts / DAY) * 2 * Math.PI) + ((entityId * 7919 + ts / MINUTE) % 13) / 10) * 10) / 10;
        points.push({ tenantId, entityId, key: 'temperature', ts, value });
      }
      commits.push((await writer.enqueue(points)).committed);
      queued += points.length;
    }
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      const { newPoints } = writer.stats();
      log(`${label}: ${newPoints.toLocaleString('en')} of ${total.toLocaleString('en')} points stored (${Math.round(newPoints / ((lastReport - started) / 1000)).toLocaleString('en')}/s)`);
    }
  }
  await Promise.all(commits);
  await writer.close();
  const seconds = (performance.now() - started) / 1000;
  log(`${label}: ${queued.toLocaleString('en')} points in ${seconds.toFixed(0)} s (${Math.round(queued / seconds).toLocaleString('en')}/s)`);
  return { points: queued, seconds };
}

/** The p-th percentile (0–100) of ascending times. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
