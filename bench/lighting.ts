// `node bench/lighting.ts [--lamps 10000] [--postgres] [--flood-rate 20000] [--flood-devices 500] [--no-flood] [--wait 600]`
// (`npm run bench:lighting`). The lighting engine (server/engines/lighting) driving real lamps
// at dusk, on a fresh server process (bench/deviceServer.ts: embedded PGlite by default, a throw-away
// PostgreSQL with --postgres, or DATABASE_URL).
//
// The demo database is seeded by a first start. With the server stopped, SQL adds street lamps to
// Demo City up to --lamps (siblings of a demo lamp, spread ±0.01° around 48.145 N 17.109 E), puts
// them into a new group "Bench lamps", adds --flood-devices environment sensors, and deletes Demo
// City's own profiles (the demo's lamps follow "Night dimming" through their group otherwise).
// Then one server process runs:
//
// 1. The lamps connect, one mqtt.js client each, in a child process (bench/lightingLamps.ts; what a
//    lamp does is described there), 100 at a time; the flood devices connect over MQTT over
//    WebSocket (`/mqtt`): one instance's MQTT listener takes at most 10,000 connections
//    (server/ingest/mqttListener.ts), all of them lamps here.
// 2. A profile "Bench dusk" is made through `POST /create-profile` for the group, with no interval
//    (off: level 0). The engine ticks at once and sends every lamp setDim 0: the time until the
//    lamps have reported 0 is printed ("first assignment").
// 3. The profile is changed through `POST /update-profile` to one fixed interval at 100 from T,
//    a whole minute 3–4 minutes on, in the tenant's zone. The three minutes before T: a quiet
//    minute (nothing changes: the CPU of a tick that decides every lamp and sends nothing), a
//    quiet minute with the flood (--flood-rate points/s offered from --flood-devices devices, QoS 1,
//    at most 4 in flight each, 10 keys a message f0…f9, for 60 s; its stored points/s), and a
//    minute for the flood's backlog to drain.
// 4. At T the lamps turn from 0 to 100, the same flood running for 60 s from T. Per lamp online at
//    T: when its setDim 100 arrived and when its `dim_level` 100 report was PUBACKed (stored), from T
//    (this machine's clock, for the lamps' process too). Waited for until every online lamp has
//    reported 100, or --wait seconds.
// 5. With the server stopped: the flood's stored points counted in the database (rows of f0…f9 in
//    each run's ts range), the setDim 100 commands' timestamps (the tick's transaction began at
//    `created_at`; `delivered_at` after the lamp's PUBACK; `answered_at` when its answer was
//    handled), and the tick itself timed in a transaction rolled back: the lamps' query, the
//    decisions, the whole tick when every lamp changes and when none does.
//
// CPU: the server process's utime + stime (/proc/<pid>/stat) over each minute, the lamps' process's
// and this one's, and every core's busy time (other processes: PostgreSQL with --postgres, and
// whatever else shares the machine).
//
// Goal: 99 % of the online lamps report the new level within 60 s of T.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Tx } from '../server/db/database.ts';
import { lampsOfTenant, lightingProfiles } from '../server/db/lightingQueries.ts';
import { decideLamp } from '../server/services/lighting/lampDecision.ts';
import { lightLamps } from '../server/services/lighting/lampLighting.ts';
import {
  fmt, liveServers, log, makeTarget, openSql, percentile, processFigures, sleep, startServer, type Server, type Sql, type Target,
} from './deviceServer.ts';
import { machineLine } from './launch.ts';
import { PacedDevice, publishPaced, storedPoints, type PublishRun } from './pacedPublisher.ts';
import type { LampIdentity, LampReply, LampRequest } from './lightingLamps.ts';
import { numberArgument } from './arguments.ts';

const usePostgres = process.argv.includes('--postgres');
const lampCount = numberArgument('--lamps', 10000);
const floodRate = numberArgument('--flood-rate', 20000);
const floodDevices = numberArgument('--flood-devices', 500);
const flooding = !process.argv.includes('--no-flood') && floodRate > 0 && floodDevices > 0;
const waitS = numberArgument('--wait', 600);
const FLOOD_S = 60;
const KEYS = 10;
const WINDOW = 4;
const FLOOD_KEYS = Array.from({ length: KEYS }, (_, i) => `f${i}`);
const MINUTE = 60_000;
const CONNECT_BATCH = 100;
const GROUP_NAME = 'Bench lamps';
const PROFILE_NAME = 'Bench dusk';
const DUSK_LEVEL = 100;

// ---------------------------------------------------------------------------------------------
// CPU over a window: the server, the lamps' process, this process, the whole machine.

function machineBusy(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - fields[3] - fields[4], total };
}

interface CpuMark { at: number; server: number; lamps: number; bench: number; busy: number }
interface CpuUse { seconds: number; server: number; lamps: number; bench: number; machine: number }

const cpuMark = (serverPid: number, lampsPid: number): CpuMark => {
  const own = process.cpuUsage();
  return {
    at: performance.now(), server: processFigures(serverPid)?.cpuS ?? NaN, lamps: processFigures(lampsPid)?.cpuS ?? NaN,
    bench: (own.user + own.system) / 1e6, busy: machineBusy().busy / 100,
  };
};
/** CPU-seconds used between two marks, and the window's length. */
const cpuUse = (from: CpuMark, to: CpuMark): CpuUse => ({
  seconds: (to.at - from.at) / 1000, server: to.server - from.server, lamps: to.lamps - from.lamps, bench: to.bench - from.bench, machine: to.busy - from.busy,
});

// ---------------------------------------------------------------------------------------------
// The lamps' process.

interface LampFleet {
  pid: number;
  ask<K extends LampReply['kind']>(request: LampRequest, kind: K): Promise<Extract<LampReply, { kind: K }>>;
  stop(): Promise<void>;
}

function startLamps(): LampFleet {
  const child = fork(join(import.meta.dirname, 'lightingLamps.ts'), [], { execArgv: ['--max-old-space-size=4096'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting: ((reply: LampReply) => void)[] = [];
  child.on('message', (reply: LampReply) => waiting.shift()?.(reply));
  const kill = () => child.kill('SIGKILL');
  liveServers.add(kill);
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    liveServers.delete(kill);
    resolve();
  }));
  return {
    pid: child.pid!,
    ask: (request, kind) => new Promise((resolve, reject) => {
      waiting.push((reply) => (reply.kind === kind ? resolve(reply as never) : reject(new Error(`the lamps answered ${reply.kind} to ${request.kind}`))));
      child.send(request);
    }),
    async stop() {
      if (child.connected) {
        child.send({ kind: 'stop' } satisfies LampRequest);
        await Promise.race([exited, sleep(30_000)]);
      }
      kill();
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The flood: other devices publishing, paced (bench/pacedPublisher.ts).

const FLOOD = { keys: FLOOD_KEYS, window: WINDOW, clientPrefix: 'bench-flood-', connectTimeoutMs: 60_000 };
/** Publishes from every device, paced to floodRate points/s in all, for FLOOD_S; answers once the last PUBACKs are in. */
const flood = (devices: PacedDevice[]) => publishPaced(devices, floodRate, FLOOD_S);

// ---------------------------------------------------------------------------------------------
// The REST API, as the demo's admin.

async function signIn(base: string): Promise<string> {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@demo.city', password: 'demo1234' }),
  });
  return (await login.json() as { access_token: string }).access_token;
}

async function post<T>(base: string, token: string, path: string, input: unknown): Promise<T> {
  const answer = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ input }) });
  if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
  return await answer.json() as T;
}

// ---------------------------------------------------------------------------------------------
// In the database (the server stopped).

interface Prepared { tenantId: string; timeZone: string; groupId: number; lamps: LampIdentity[]; sensors: { id: number; access_token: string }[] }

/** Siblings of entity `templateId` (its tenant, type and parent), `count` of them, named `prefix n`; `geom` an SQL expression of `n`. */
async function addSiblings(db: Sql, templateId: number, count: number, prefix: string, geom: string) {
  if (count <= 0) return;
  await db.query(`
    WITH template AS (SELECT * FROM entities WHERE id = ${templateId}),
    made AS (
      INSERT INTO entities (tenant_id, entity_type_id, parent_id, name, attributes, level, tree_path, geom)
      SELECT tenant_id, entity_type_id, parent_id, json_build_object('en', '${prefix} ' || n), '{}'::json, level, '', ${geom}
      FROM template, generate_series(1, ${count}) n
      RETURNING id, parent_id
    )
    UPDATE entities e SET tree_path = coalesce((SELECT p.tree_path || '.' FROM entities p WHERE p.id = made.parent_id), '') || e.id
    FROM made WHERE e.id = made.id`);
}

async function prepareDatabase(target: Target): Promise<Prepared> {
  log(`seeding a fresh demo database (${target.label})…`);
  const seeding = await startServer(target, true);
  await seeding.stop();
  const db = await openSql(target);
  try {
    const [city] = await db.query<{ id: string; zone: string | null }>(`SELECT id, attributes->>'timezone' AS zone FROM tenants WHERE name = 'Demo City'`);
    const ofCategory = (category: string) => `SELECT e.id, e.access_token FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
      WHERE e.tenant_id = '${city.id}' AND t.category = '${category}' AND e.access_token IS NOT NULL AND NOT e.is_gateway ORDER BY e.id`;
    const [{ data_type: geomType }] = await db.query<{ data_type: string }>(`SELECT data_type FROM information_schema.columns WHERE table_name = 'entities' AND column_name = 'geom'`);
    const point = (lat: string, lng: string) => `json_build_object('type', 'Point', 'coordinates', json_build_array(${lng}, ${lat}))::${geomType}`;

    let lamps = await db.query<{ id: number; access_token: string }>(ofCategory('lighting'));
    await addSiblings(db, lamps[0].id, lampCount - lamps.length, 'Bench lamp', point('48.145 + (random() - 0.5) * 0.02', '17.109 + (random() - 0.5) * 0.02'));
    lamps = (await db.query<{ id: number; access_token: string }>(ofCategory('lighting'))).slice(0, lampCount);
    let sensors = await db.query<{ id: number; access_token: string }>(ofCategory('environment'));
    await addSiblings(db, sensors[0].id, floodDevices - sensors.length, 'Bench sensor', point('48.145 + (random() - 0.5) * 0.02', '17.109 + (random() - 0.5) * 0.02'));
    sensors = (await db.query<{ id: number; access_token: string }>(ofCategory('environment'))).slice(0, floodDevices);

    // nothing else steers Demo City's lamps: its demo profiles go (their links with them)
    for (const table of ['profile_groups', 'profile_entities', 'profiles']) await db.query(`DELETE FROM ${table} WHERE tenant_id = '${city.id}'`);
    const [group] = await db.query<{ id: number }>(`INSERT INTO groups (tenant_id, name, attributes) VALUES ('${city.id}', '${GROUP_NAME}', '{"color": "#fa8c16"}'::json) RETURNING id`);
    await db.query(`UPDATE groups SET tree_path = id::text WHERE id = ${group.id}`);
    await db.query(`INSERT INTO entity_groups (tenant_id, entity_id, group_id) SELECT '${city.id}', id, ${group.id} FROM unnest(ARRAY[${lamps.map((l) => l.id).join(',')}]::int[]) id`);
    return {
      tenantId: city.id, timeZone: city.zone ?? 'UTC', groupId: group.id,
      lamps: lamps.map((lamp) => ({ id: lamp.id, token: lamp.access_token })), sensors,
    };
  } finally {
    await db.close();
  }
}


interface CommandTimes { total: number; byStatus: Record<string, number>; createdFirst: number; createdLast: number; delivered: number[]; answered: number[] }

/** The setDim commands to `level` made from 5 s before `since` (ms): their statuses and timestamps, ms after `since`. */
async function commandTimes(db: Sql, level: number, since: number): Promise<CommandTimes> {
  const rows = await db.query<{ status: string; created: number; delivered: number | null; answered: number | null }>(`SELECT status,
      extract(epoch FROM created_at)::float8 * 1000 AS created, extract(epoch FROM delivered_at)::float8 * 1000 AS delivered, extract(epoch FROM answered_at)::float8 * 1000 AS answered
    FROM device_commands WHERE method = 'setDim' AND params->>'level' = '${level}' AND created_at >= to_timestamp(${(since - 5_000) / 1000}) AND source = 'lighting'`);
  const byStatus: Record<string, number> = {};
  for (const row of rows) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
  const after = (value: number | null) => (value === null ? Infinity : Number(value) - since);
  return {
    total: rows.length, byStatus,
    createdFirst: Math.min(...rows.map((row) => Number(row.created))) - since, createdLast: Math.max(...rows.map((row) => Number(row.created))) - since,
    delivered: rows.map((row) => after(row.delivered)), answered: rows.map((row) => after(row.answered)),
  };
}

class Rollback extends Error {}

/** The tick's work over every lamp in one transaction (the engine does it LAMP_WINDOW lamps at a time). */
const EVERY_LAMP = { after: 0, limit: 2 ** 31 - 1 };

/** The tick's parts, timed in transactions rolled back (median of three, ms). */
async function tickBreakdown(target: Target, tenantId: string, timeZone: string, changingAt: number, quietAt: number) {
  const db = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const timed = async (work: (tx: Tx) => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      let ms = NaN;
      await db.tenantTx(tenantId, async (tx) => {
        const began = performance.now();
        await work(tx);
        ms = performance.now() - began;
        throw new Rollback();
      }).catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
      times.push(ms);
    }
    return median(times);
  };
  try {
    let lampRows = 0;
    const query = await timed(async (tx) => {
      lampRows = (await lampsOfTenant(tx, tenantId, EVERY_LAMP)).length;
    });
    let decideMs = NaN;
    await timed(async (tx) => {
      const [lamps, profiles] = await Promise.all([lampsOfTenant(tx, tenantId, EVERY_LAMP), lightingProfiles(tx)]);
      const began = performance.now();
      for (const lamp of lamps) decideLamp(lamp, lamp.profile_id === null ? undefined : profiles.get(lamp.profile_id), changingAt, timeZone);
      decideMs = performance.now() - began;
    });
    let commands = 0;
    const changing = await timed(async (tx) => {
      commands = (await lightLamps(tx, tenantId, changingAt, EVERY_LAMP)).queued.length;
    });
    const quiet = await timed((tx) => lightLamps(tx, tenantId, quietAt, EVERY_LAMP));
    return { lampRows, query, decideMs, changing, commands, quiet };
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The benchmark.

const seconds = (ms: number, digits = 1) => (Number.isFinite(ms) ? fmt(ms / 1000, digits) : '∞');
const spread = (values: number[]) => {
  const sorted = Float64Array.from(values).sort();
  return [50, 95, 99].map((p) => seconds(percentile(sorted, p))).join(' / ') + ` / ${seconds(sorted.length ? sorted[sorted.length - 1] : NaN)}`;
};
/** ms from `from` of each lamp online at the mark (Infinity when it never happened). */
const sinceMark = (times: { commandAt: (number | null)[]; reportedAt: (number | null)[]; onlineAtMark: boolean[] }, from: number) => {
  const command: number[] = [];
  const reported: number[] = [];
  const lampPath: number[] = [];
  times.onlineAtMark.forEach((online, i) => {
    if (!online) return;
    const c = times.commandAt[i];
    const r = times.reportedAt[i];
    command.push(c === null ? Infinity : c - from);
    reported.push(r === null ? Infinity : r - from);
    if (c !== null && r !== null) lampPath.push(r - c);
  });
  return { command, reported, lampPath };
};

const cpuLine = (name: string, use: CpuUse) =>
  `| ${name} | ${fmt(use.seconds, 1)} | ${fmt(use.server, 2)} | ${fmt(use.lamps, 2)} | ${fmt(use.bench, 2)} | ${fmt(Math.max(0, use.machine - use.server - use.lamps - use.bench), 2)} |`;

async function dusk(target: Target) {
  const prepared = await prepareDatabase(target);
  log(`${fmt(prepared.lamps.length)} lamps in group ${prepared.groupId}, ${fmt(prepared.sensors.length)} sensors; tenant zone ${prepared.timeZone}`);
  const server: Server = await startServer(target);
  const fleet = startLamps();
  const floodUrl = `${server.base.replace(/^http/, 'ws')}/mqtt`;
  try {
    const connected = await fleet.ask({ kind: 'connect', url: server.mqttUrl, lamps: prepared.lamps, batch: CONNECT_BATCH }, 'connected');
    log(`${fmt(connected.online)} lamps connected in ${fmt(connected.seconds, 1)} s (${connected.failed} failed${connected.firstError ? `: ${connected.firstError}` : ''})`);
    const sensors = prepared.sensors.map((device) => new PacedDevice(device, FLOOD));
    if (flooding) {
      for (let i = 0; i < sensors.length; i += 50) await Promise.all(sensors.slice(i, i + 50).map((s) => s.connect(floodUrl)));
      log(`${sensors.length} flood devices connected over ${floodUrl}`);
    }

    // ---- first assignment: every lamp to 0
    const token = await signIn(server.base);
    const assignedAt = Date.now();
    const profile = await post<{ id: number }>(server.base, token, '/create-profile', {
      name: PROFILE_NAME, type: 'dimming_profile', definition: { astro_clock: false, intervals: [] }, group_ids: [prepared.groupId],
    });
    const cpuAssign0 = cpuMark(server.pid, fleet.pid);
    let status = await fleet.ask({ kind: 'status' }, 'status');
    for (const deadline = Date.now() + waitS * 1000; (status.reported[0] ?? 0) < status.online && Date.now() < deadline;) {
      await sleep(500);
      status = await fleet.ask({ kind: 'status' }, 'status');
    }
    const assignUse = cpuUse(cpuAssign0, cpuMark(server.pid, fleet.pid));
    const settledAt = Date.now();
    log(`${fmt(status.reported[0] ?? 0)} of ${fmt(status.online)} online lamps reported 0 after ${seconds(settledAt - assignedAt)} s`);
    const zeroTimes = await fleet.ask({ kind: 'times', level: 0 }, 'times');
    const zero = sinceMark({ ...zeroTimes, onlineAtMark: zeroTimes.commandAt.map(() => true) }, assignedAt);

    // ---- the dusk at T, three minutes on
    const m0 = Math.ceil((Date.now() + 20_000) / MINUTE) * MINUTE;
    const t = m0 + 3 * MINUTE;
    const hhmm = (ms: number) => new Intl.DateTimeFormat('en-GB', { timeZone: prepared.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
    await post(server.base, token, '/update-profile', {
      id: profile.id, name: PROFILE_NAME, type: 'dimming_profile', group_ids: [prepared.groupId],
      definition: { astro_clock: false, intervals: [{ from: hhmm(t), to: hhmm(t + 6 * 60 * MINUTE), value: DUSK_LEVEL }] },
    });
    log(`profile: ${DUSK_LEVEL} from ${hhmm(t)} (${new Date(t).toISOString()}); a quiet minute from ${new Date(m0).toISOString()}`);

    await sleep(m0 - Date.now());
    const q0 = cpuMark(server.pid, fleet.pid);
    await sleep(m0 + MINUTE - Date.now());
    const q1 = cpuMark(server.pid, fleet.pid);
    const quietFlood = flooding ? flood(sensors) : undefined;
    await sleep(m0 + 2 * MINUTE - Date.now());
    const q2 = cpuMark(server.pid, fleet.pid);
    const quietRun = await quietFlood;
    if (Date.now() > t - 1_000) log('the quiet flood was still draining at T');
    const before = await fleet.ask({ kind: 'status' }, 'status');

    await sleep(t - Date.now());
    const d0 = cpuMark(server.pid, fleet.pid);
    const mark = await fleet.ask({ kind: 'mark' }, 'marked');
    const duskFlood = flooding ? flood(sensors) : undefined;
    log(`T: ${fmt(mark.online)} lamps online (mark ${mark.at - t} ms after T)`);
    let d1: CpuMark | undefined;
    let last = 0;
    for (const deadline = t + waitS * 1000; Date.now() < deadline;) {
      await sleep(500);
      if (!d1 && Date.now() >= t + MINUTE) d1 = cpuMark(server.pid, fleet.pid);
      status = await fleet.ask({ kind: 'status' }, 'status');
      const reported = status.reported[DUSK_LEVEL] ?? 0;
      if (Date.now() - last > 10_000) {
        last = Date.now();
        log(`T + ${seconds(Date.now() - t, 0)} s: ${fmt(reported)} of ${fmt(status.online)} reported ${DUSK_LEVEL}`);
      }
      if (reported >= mark.online) break;
    }
    const dDone = cpuMark(server.pid, fleet.pid);
    if (!d1) {
      await sleep(t + MINUTE - Date.now());
      d1 = cpuMark(server.pid, fleet.pid);
    }
    const duskRun = await duskFlood;
    const times = await fleet.ask({ kind: 'times', level: DUSK_LEVEL }, 'times');
    const end = await fleet.ask({ kind: 'status' }, 'status');
    const ended = Date.now();
    await Promise.all(sensors.map((s) => s.client?.endAsync(true).catch(() => {})));
    await fleet.stop();
    await server.stop();

    // ---- in the database
    const db = await openSql(target);
    const storedOf = new Map<PublishRun, number>();
    for (const run of [quietRun, duskRun]) if (run) storedOf.set(run, await storedPoints(db, FLOOD_KEYS, run));
    const commands = await commandTimes(db, DUSK_LEVEL, t);
    const firstTick = (await commandTimes(db, 0, assignedAt)).createdFirst;
    const [{ reports }] = await db.query<{ reports: number }>(`SELECT count(*)::float8 AS reports FROM telemetry
      WHERE key = 'dim_level' AND value_num = ${DUSK_LEVEL} AND ts >= to_timestamp(${t / 1000}) AND ts <= to_timestamp(${ended / 1000})`);
    await db.close();
    log('timing the tick in transactions rolled back');
    const breakdown = await tickBreakdown(target, prepared.tenantId, prepared.timeZone, t - MINUTE, t + MINUTE);

    // ---- the report
    const at = sinceMark(times, t);
    const online = mark.online;
    const sortedReports = Float64Array.from(at.reported).sort();
    const p99 = percentile(sortedReports, 99);
    const all = sortedReports.length ? sortedReports[sortedReports.length - 1] : NaN;
    const reportedCount = at.reported.filter(Number.isFinite).length;
    const heading = `${fmt(prepared.lamps.length)} lamps (${fmt(online)} online at T), ${flooding ? `flood ${fmt(floodRate)} points/s offered from ${floodDevices} devices` : 'no flood'} — ${target.label}`;
    console.log(`\nLighting at dusk: ${heading}`);
    console.log(`${machineLine()} · ${Math.round(totalmem() / 2 ** 30)} GB RAM · load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`);
    console.log('');
    console.log('| step | lamps | setDim arrived p50 / p95 / p99 / max s | report PUBACKed p50 / p95 / p99 / max s | 99 % reported after | 100 % reported after |');
    console.log('| --- | ---: | --- | --- | ---: | ---: |');
    const zeroSorted = Float64Array.from(zero.reported).sort();
    console.log(`| first assignment (profile made → level 0; its tick began ${seconds(firstTick)} s on) | ${fmt(zero.reported.length)} | ${spread(zero.command)} | ${spread(zero.reported)} | ${seconds(percentile(zeroSorted, 99))} s | ${seconds(zeroSorted[zeroSorted.length - 1])} s |`);
    console.log(`| dusk (T → level ${DUSK_LEVEL}) | ${fmt(online)} | ${spread(at.command)} | ${spread(at.reported)} | **${seconds(p99)} s** | ${seconds(all)} s |`);
    console.log(`Dusk: ${fmt(reportedCount)} of ${fmt(online)} online lamps reported ${DUSK_LEVEL} (${fmt(end.reported[DUSK_LEVEL] ?? 0)} at the end; lamps online before T ${fmt(before.online)}, at the end ${fmt(end.online)}); lamp's own path (setDim arrived → report PUBACKed) p50 / p95 / p99 / max ${spread(at.lampPath)} s; publish errors at the lamps ${end.errors}; ${fmt(reports)} dim_level ${DUSK_LEVEL} rows stored.`);
    console.log(`Server side: the tick's transaction began ${seconds(commands.createdFirst, 2)} s after T (commands ${fmt(commands.total)}: ${Object.entries(commands.byStatus).map(([s, n]) => `${s} ${fmt(n)}`).join(', ')}); delivered_at p50 / p95 / p99 / max ${spread(commands.delivered)} s; answered_at ${spread(commands.answered)} s (after T).`);
    console.log(`The tick, rolled back (median of 3): the lamps' query ${fmt(breakdown.query)} ms for ${fmt(breakdown.lampRows)} lamps; the decisions ${fmt(breakdown.decideMs)} ms; a whole tick with every lamp changing ${fmt(breakdown.changing)} ms (${fmt(breakdown.commands)} commands queued), with none changing ${fmt(breakdown.quiet)} ms.`);
    console.log('');
    console.log('CPU-seconds (server / lamps\' process / this process / everything else on the machine):');
    console.log('');
    console.log('| window | s | server | lamps | bench | others |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    console.log(cpuLine('first assignment (until every lamp reported 0)', assignUse));
    console.log(cpuLine('quiet minute', cpuUse(q0, q1)));
    console.log(cpuLine(`quiet minute${flooding ? ' with the flood' : ' (second)'}`, cpuUse(q1, q2)));
    console.log(cpuLine(`transition minute (T → T + 60 s)${flooding ? ' with the flood' : ''}`, cpuUse(d0, d1)));
    console.log(cpuLine('T → every lamp reported (or --wait)', cpuUse(d0, dDone)));
    const quietCpu = cpuUse(q0, q1).server;
    const duskCpu = cpuUse(d0, d1).server;
    console.log(`Engine CPU per minute tick (server): quiet ${fmt(quietCpu, 2)} s, transition ${fmt(duskCpu, 2)} s${flooding ? ` (the transition minute has the flood; the quiet minute with the flood ${fmt(cpuUse(q1, q2).server, 2)} s)` : ''}; difference ${fmt(duskCpu - (flooding ? cpuUse(q1, q2).server : quietCpu), 2)} s.`);
    if (quietRun && duskRun) {
      console.log('');
      console.log('| flood | stored points/s | stored points | PUBACK p50 / p95 / p99 ms | publish errors |');
      console.log('| --- | ---: | ---: | --- | ---: |');
      const rate = (run: PublishRun) => storedOf.get(run)! / ((run.lastAck - run.start) / 1000);
      const ms = (values: number[]) => {
        const sorted = Float64Array.from(values).sort();
        return [50, 95, 99].map((p) => fmt(percentile(sorted, p))).join(' / ');
      };
      for (const [name, run] of [['quiet minute', quietRun], ['transition minute', duskRun]] as const) {
        console.log(`| ${name} | ${fmt(rate(run))} | ${fmt(storedOf.get(run)!)} | ${ms(run.latencies)} | ${run.errors} |`);
      }
      console.log(`Ingest during the transition vs quiet: ${fmt((rate(duskRun) / rate(quietRun) - 1) * 100, 1)} %.`);
    }
    console.log(`Goal: 99 % of online lamps reported within 60 s of T — ${p99 <= 60_000 ? 'met' : 'NOT met'} (${seconds(p99)} s).`);
  } finally {
    await fleet.stop().catch(() => {});
    await server.stop().catch(() => {});
  }
}

const target = await makeTarget('lighting', usePostgres);
try {
  await dusk(target);
} finally {
  for (const kill of liveServers) kill();
  await sleep(500);
  await target.cleanup();
}
process.exit(0);
