// `node bench/ingestCost.ts [--postgres] [--devices 10000] [--batches 60]`
// Where a stored point's time goes in the database, for the city's shape (many devices, each
// sending little): batches of 5,000 points (500 devices × 10 keys, the devices in turn, so a
// device's next point comes 10,000 × 10 points later, as at 20,000 points/s from devices sending
// every 5 s) written by parts of the writer's statement, each part on fresh timestamps:
// - parse: the batch's JSON read into rows, nothing written;
// - raw: + the raw points inserted;
// - raw + latest: + each key's latest value;
// - the writer's statement for live points (the roll-ups left to the folder);
// - the writer's statement for late points (folded into the five roll-ups at once, as every
//   point was before the folder);
// - the folder: a closed quarter hour of points every 5 s folded, per point.
// Prints µs a point and points/s for each, on the embedded database (its worker thread, as the
// server runs it) or PostgreSQL (--postgres).
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../server/db/database.ts';
import { foldedUntil } from '../server/db/rollupQueries.ts';
import { insertTelemetryBatch } from '../server/db/telemetryBatchQueries.ts';
import { ensureTelemetryPartition } from '../server/db/telemetryMaintenanceQueries.ts';
import { foldAll } from '../server/engines/rollups/rollupFolder.ts';
import { pointRow } from '../server/telemetry/telemetryPoint.ts';
import { fmt, log, makeTarget, prepare, type Device } from './deviceServer.ts';
import { machineLine } from './launch.ts';
import { lockDataDir } from '../server/db/dataDirLock.ts';
import { argument } from './arguments.ts';

const usePostgres = process.argv.includes('--postgres');
const deviceCount = Number(argument('--devices', '10000'));
const batches = Number(argument('--batches', '60'));
const KEYS = 10;
const PER_BATCH = 500;

const target = await makeTarget('ingest-cost', usePostgres);
const devices = await prepare(target, deviceCount);
const release = target.databaseUrl ? () => {} : lockDataDir(target.dataDir);
const db: Database = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });

/** The `index`th batch's points from `start` (ms): devices in turn, a second apart per round. */
function batch(index: number, start: number): string {
  const rows = [];
  for (let d = 0; d < PER_BATCH; d++) {
    const device: Device = devices[(index * PER_BATCH + d) % devices.length];
    const ts = start + Math.floor((index * PER_BATCH + d) / devices.length) * 1000 + d;
    for (let k = 0; k < KEYS; k++) rows.push(pointRow({ tenantId: device.tenant_id, entityId: device.id, key: `cost_${k}`, ts, value: Math.round(Math.random() * 10_000) / 100 }));
  }
  return JSON.stringify(rows);
}

const input = (rows: string) => sql`input AS (SELECT * FROM json_to_recordset(${rows}::json) AS p(t uuid, e int, k text, ms float8, n float8, s text, b boolean, j jsonb))`;
const rawInsert = sql`stored AS (INSERT INTO telemetry (tenant_id, entity_id, key, ts, value_num, value_text, value_bool, value_json)
  SELECT t, e, k, to_timestamp(ms / 1000.0), n, s, b, j FROM input ON CONFLICT DO NOTHING RETURNING 1)`;
const latest = sql`latest AS (INSERT INTO telemetry_latest AS l (tenant_id, entity_id, key, ts, value_num, value_text, value_bool, value_json)
  SELECT DISTINCT ON (e, k) t, e, k, to_timestamp(ms / 1000.0), n, s, b, j FROM input ORDER BY e, k, ms DESC
  ON CONFLICT (entity_id, key) DO UPDATE SET ts = excluded.ts, value_num = excluded.value_num WHERE excluded.ts > l.ts RETURNING 1)`;

const parts: { name: string; write(rows: string): Promise<unknown> }[] = [
  { name: 'parse the batch (nothing written)', write: (rows) => db.systemQuery(sql`WITH ${input(rows)} SELECT count(*) FROM input`) },
  { name: 'raw points', write: (rows) => db.systemQuery(sql`WITH ${input(rows)}, ${rawInsert} SELECT count(*) FROM stored`) },
  { name: 'raw points + latest values', write: (rows) => db.systemQuery(sql`WITH ${input(rows)}, ${rawInsert}, ${latest} SELECT (SELECT count(*) FROM stored), (SELECT count(*) FROM latest)`) },
  { name: 'the writer\'s statement, live points', write: (rows) => insertTelemetryBatch(db, rows) },
];

const line = await foldedUntil(db);
const DAY = 86_400_000;
const results: { name: string; usPerPoint: number }[] = [];
async function measure(name: string, write: (rows: string) => Promise<unknown>, start: number) {
  await ensureTelemetryPartition(db, Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth(), 1));
  for (let i = 0; i < 3; i++) await write(batch(i, start)); // warm-up
  const texts = Array.from({ length: batches }, (_, i) => batch(i + 3, start));
  const began = performance.now();
  for (const rows of texts) await write(rows);
  const ms = performance.now() - began;
  results.push({ name, usPerPoint: (ms * 1000) / (batches * PER_BATCH * KEYS) });
  log(`${name}: ${fmt(results.at(-1)!.usPerPoint, 1)} µs a point`);
}

// Each part on its own hour after the folder's line, so that none finds another's rows.
for (const [index, part] of parts.entries()) await measure(part.name, part.write, line + (index + 1) * 3_600_000);
await measure('the writer\'s statement, late points (five roll-ups each)', (rows) => insertTelemetryBatch(db, rows), line - 2 * DAY);
// The folder: a quarter hour of 200 devices each sending 10 keys every 5 s (180 points a key),
// written by the statements above (not timed), then folded.
const foldFrom = line + (parts.length + 2) * 3_600_000;
const foldDevices = devices.slice(0, 200);
for (let second = 0; second < 900; second += 5) {
  const rows = foldDevices.flatMap((device) => Array.from({ length: KEYS }, (_, k) => pointRow({ tenantId: device.tenant_id, entityId: device.id, key: `cost_${k}`, ts: foldFrom + second * 1000, value: k })));
  await insertTelemetryBatch(db, JSON.stringify(rows));
}
// every quarter hour before this one is folded first, untimed
await foldAll(db, foldFrom);
const folding = performance.now();
await foldAll(db, foldFrom + 15 * 60_000);
const foldMs = performance.now() - folding;
results.push({ name: 'the folder, when the quarter hour has closed (200 devices × 10 keys × 180 points)', usPerPoint: (foldMs * 1000) / (foldDevices.length * KEYS * 180) });
await db.close();
release();
await target.cleanup();

console.log(`\nThe cost of a stored point, ${fmt(deviceCount)} devices, batches of ${fmt(PER_BATCH * KEYS)} points (${PER_BATCH} devices × ${KEYS} keys), ${batches} a part — ${target.label} — ${machineLine()}`);
console.log('| part | µs a point | points/s |');
console.log('| --- | ---: | ---: |');
for (const { name, usPerPoint } of results) console.log(`| ${name} | ${fmt(usPerPoint, 1)} | ${fmt(1_000_000 / usPerPoint)} |`);
