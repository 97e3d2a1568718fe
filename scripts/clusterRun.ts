// A run of several instances behind HAProxy on a PostgreSQL of their own, under fire: devices
// publish QoS 1 through the balancer (scripts/clusterFleet.ts), live subscribers listen through it
// (scripts/clusterSubscribers.ts), operators' commands go to lamps through it, schedulers and a
// watcher are active; every `killEveryMs` a random instance is killed with SIGKILL and started
// again, and PostgreSQL is restarted once. Then, optionally, every instance is restarted in turn
// the way an upgrade does it (SIGTERM, drain, start) while a client reads and writes through the
// balancer. Afterwards the database is asked what became of every point the devices had
// acknowledged, every scheduler occurrence, every log row and lighting command, and the
// subscribers and lamps what they heard (scripts/clusterReport.ts). The cluster test asserts the
// report; bench/cluster.ts prints it.
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../server/db/database.ts';
import { seedDemoIfEmpty } from '../server/seed/demoSeed.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { startFleet, type Fleet, type FleetDevice } from './clusterFleet.ts';
import { downlinkDelivery, liveDelivery, lostPoints, quantile, slowestReconnect, type CommandSent, type MissedUpdate } from './clusterReport.ts';
import { startSubscribers, type Subscribers } from './clusterSubscribers.ts';
import { startThrowawayPostgres } from './postgres.ts';

export interface ClusterRunOptions {
  instances: number;
  /** Devices publishing (of both demo tenants), and their messages per second in all. */
  devices: number;
  ratePerSecond: number;
  durationMs: number;
  /** A random instance is killed this often (ms); none when absent. */
  killEveryMs?: number;
  /** PostgreSQL is restarted at this moment of the run (ms); never when absent. */
  postgresRestartAtMs?: number;
  /** After the fire, every instance is stopped (SIGTERM) and started again in turn. */
  rollingRestart?: boolean;
  subscribers: number;
  schedulers: number;
  /** An operator's command to a lamp this often (ms); none when absent. */
  commandEveryMs?: number;
  log?: (line: string) => void;
}

export interface ClusterReport {
  instances: number;
  /** Points published, and acknowledged (PUBACK: stored) by the platform. */
  sent: number;
  acknowledged: number;
  /** Acknowledged points not in the database. */
  lost: number;
  /** Acknowledged points per second over the run. */
  ingestRate: number;
  kills: number;
  /** The longest a device took to be connected again after its instance was killed (ms). */
  slowestReconnectMs: number;
  /** Updates the subscribers should have had (made while they were subscribed), those they missed, and the delay's p95 (ms). */
  expectedUpdates: number;
  missedUpdates: number;
  /** The first few missed, with the time since the kill before each (ms; null: none before it). */
  missedUpdateSamples: (MissedUpdate & { afterKillMs: number | null })[];
  liveP95Ms: number;
  /** Commands sent to lamps through the balancer, those their lamp never received, and the delay's p95 (ms). */
  commands: number;
  commandsMissed: number;
  commandP95Ms: number;
  /** Scheduler occurrences due in the run, those that did not run, and those that ran more than once (runs or log rows). */
  schedulerOccurrences: number;
  schedulerMissed: number;
  schedulerDuplicates: number;
  /** Engine log rows (watchers, schedulers) written more than once. */
  duplicateLogRows: number;
  /** Lamps given more than one lighting command within a minute (a tick run twice). */
  lightingDuplicates: number;
  /** While PostgreSQL was down: an instance's answers to an API call and to /health. */
  whileDatabaseDown?: { api: number; apiBody: string; health: number };
  /** Every instance ready again after PostgreSQL came back (ms), or -1. */
  readyAfterDatabaseMs?: number;
  /** During the rolling restart: requests made through the balancer, and those that did not succeed (a few described). */
  rollingRestart?: { requests: number; failed: number; failures: string[] };
}

/** Updates made this close to a subscriber's (re)connection or departure are not counted (its subscription is sent after connecting). */
const MARGIN_MS = 1_000;
/** Levels of operators' commands: none a demo profile gives (0, 40, 100), so a command is known by its level. */
const COMMAND_LEVELS = [7, 13, 17, 23, 29, 31, 37, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97];
/** A stopping instance reads as not ready this long before it closes: more than HAProxy takes to find it down (2 checks, 500 ms apart). */
const DRAIN_MS = 2_000;
const JWT_SECRET = 'cluster-run-secret-that-is-long-enough-for-hs256';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runCluster(options: ClusterRunOptions): Promise<ClusterReport> {
  const log = options.log ?? (() => {});
  const pg = await startThrowawayPostgres();
  if (!pg) throw new Error('No PostgreSQL 15+ binaries: apt-get install -y postgresql');
  let db: Database | undefined;
  let cluster: Cluster | undefined;
  let fleet: Fleet | undefined;
  let subscribers: Subscribers | undefined;
  try {
    db = await openDatabase({ databaseUrl: pg.url, dataDir: 'memory://' });
    await seedDemoIfEmpty(db);
    const devices = await db.systemQuery<FleetDevice & { city: boolean }>(sql`
      SELECT e.id, e.access_token AS token, t.name = 'Demo City' AS city, coalesce(et.category = 'lighting', false) AS lamp
      FROM entities e JOIN tenants t ON t.id = e.tenant_id LEFT JOIN entity_types et ON et.id = e.entity_type_id
      WHERE e.access_token IS NOT NULL AND NOT e.is_gateway ORDER BY t.name = 'Demo City' DESC, e.id LIMIT ${options.devices}`);
    log(`${devices.length} devices, ${options.ratePerSecond} messages/s, ${options.instances} instances`);

    cluster = await startCluster({
      ...process.env, DATABASE_URL: pg.url, JWT_SECRET, DATA_DIR: 'memory://', SEED: 'none', SIMULATE: 'off', SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    }, options.instances);
    const { httpBase } = cluster;
    const signIn = await fetch(`${httpBase}/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@demo.city', password: 'demo1234' }),
    });
    const admin = (await signIn.json() as { access_token: string }).access_token;
    const call = async (path: string, body?: unknown) => fetch(`${httpBase}${path}`, {
      method: body === undefined ? 'GET' : 'POST', body: body === undefined ? undefined : JSON.stringify(body),
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), authorization: `Bearer ${admin}` },
    });
    const api = async (path: string, body?: unknown) => {
      const response = await call(path, body);
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<any>;
    };

    // Schedulers every minute, and a watcher on the devices' power (which swings across its threshold).
    const schedulerIds: number[] = [];
    for (let n = 0; n < options.schedulers; n++) {
      const created = await api('/create-scheduler', { input: {
        name: `Every minute ${n}`, status: 'active', entity_ids: [devices[0].id],
        definition: { kind: 'periodic', expression: '* * * * *', aggregation: 'static-value', value: n, time_slot: 'last-week', target_attribute: `minutely_${n}` },
      } });
      schedulerIds.push(created.id);
    }
    const watcher = await api('/create-watcher', { input: { name: 'Power swings', query: { key: 'power', aggregation: 'avg' }, condition: { operator: '>', kind: 'number', value: 50 }, interval: 60 } });

    // Subscribers through the balancer, each on a few of Demo City's devices (the admin's tenant).
    const cityDevices = devices.filter((device) => device.city).map((device) => device.id);
    const groups = Array.from({ length: options.subscribers }, (_, n) => cityDevices.filter((_, index) => index % options.subscribers === n).slice(0, 5));
    subscribers = startSubscribers(`${httpBase.replace('http', 'ws')}/graphql`, admin, groups);
    fleet = startFleet(`mqtt://127.0.0.1:${cluster.mqttPort}`, devices, options.ratePerSecond);
    const startedAt = Date.now();
    const seconds = () => ((Date.now() - startedAt) / 1000).toFixed(1);
    const progress = setInterval(() => log(`${seconds()} s: ${fleet!.sent()} published, ${fleet!.acks.length} acknowledged, ${fleet!.connected()}/${devices.length} devices connected`), 5_000);

    // Operators' commands to Demo City's lamps, through the balancer (any instance), until the fire ends.
    const lamps = devices.filter((device) => device.city && device.lamp).map((device) => device.id);
    const commandsSent: CommandSent[] = [];
    let commanding = true;
    const commanders = options.commandEveryMs && lamps.length ? (async () => {
      for (let n = 0; commanding; n++) {
        const command = { entity: lamps[n % lamps.length], level: COMMAND_LEVELS[n % COMMAND_LEVELS.length], at: Date.now() };
        const answer = await call('/graphql', { query: `mutation { override_lighting(entity_ids: ["${command.entity}"], level: ${command.level}, minutes: 15) { entity_ids } }` }).catch(() => undefined);
        const body = answer?.ok ? await answer.json() as { errors?: unknown } : { errors: true };
        if (!body.errors) commandsSent.push(command); // refused (the database away): not sent, not counted
        await sleep(options.commandEveryMs!);
      }
    })() : Promise.resolve();

    // The fire: kills, and one restart of PostgreSQL.
    const kills: number[] = [];
    let whileDatabaseDown: ClusterReport['whileDatabaseDown'];
    let readyAfterDatabaseMs: number | undefined;
    const allReady = async () => (await Promise.all(cluster!.instances.map((instance) =>
      fetch(`http://127.0.0.1:${instance.port}/health`).then((r) => r.ok, () => false)))).every(Boolean);
    const events: { ms: number; run: () => Promise<void> }[] = [];
    if (options.killEveryMs) {
      for (let ms = options.killEveryMs; ms < options.durationMs - 5_000; ms += options.killEveryMs) {
        events.push({ ms, run: async () => {
          const victim = Math.floor(Math.random() * options.instances);
          log(`${seconds()} s: kill -9 ${cluster!.instances[victim].name}`);
          kills.push(Date.now());
          await cluster!.kill(victim);
          await cluster!.start(victim);
        } });
      }
    }
    if (options.postgresRestartAtMs !== undefined) {
      events.push({ ms: options.postgresRestartAtMs, run: async () => {
        log(`${seconds()} s: PostgreSQL restarts`);
        const direct = `http://127.0.0.1:${cluster!.instances[0].port}`;
        await pg.restart(async () => {
          await sleep(1_500);
          const apiAnswer = await fetch(`${direct}/tenant`, { headers: { authorization: `Bearer ${admin}` } });
          const health = await fetch(`${direct}/health`);
          whileDatabaseDown = { api: apiAnswer.status, apiBody: await apiAnswer.text(), health: health.status };
        });
        const back = Date.now();
        readyAfterDatabaseMs = -1;
        for (const deadline = back + 30_000; Date.now() < deadline; await sleep(200)) {
          if (await allReady()) {
            readyAfterDatabaseMs = Date.now() - back;
            break;
          }
        }
      } });
    }
    events.sort((a, b) => a.ms - b.ms);
    for (const event of events) {
      await sleep(startedAt + event.ms - Date.now());
      await event.run();
    }
    await sleep(startedAt + options.durationMs - Date.now());
    commanding = false;
    await commanders;

    // The rolling restart: each instance in turn drains, stops and starts, while a client reads and writes through the balancer.
    let rollingRestart: ClusterReport['rollingRestart'];
    if (options.rollingRestart) {
      const outcome = { requests: 0, failed: 0, failures: [] as string[] };
      let probing = true;
      const probe = async (what: string, request: () => Promise<Response>) => {
        outcome.requests++;
        const answer = await request().then((response) => response.ok ? '' : `${response.status}`, (error: Error) => error.message);
        if (answer) {
          outcome.failed++;
          if (outcome.failures.length < 5) outcome.failures.push(`${seconds()} s ${what}: ${answer}`);
        }
      };
      const prober = (async () => {
        for (let n = 0; probing; n++) {
          await Promise.all([
            probe('GET /tenant', () => call('/tenant')),
            probe('POST /update-watcher', () => call('/update-watcher', { input: { id: watcher.id, name: `Power swings ${n}` } })),
          ]);
          await sleep(50);
        }
      })();
      for (let index = 0; index < cluster.instances.length; index++) {
        log(`${seconds()} s: rolling restart of ${cluster.instances[index].name}`);
        await cluster.restart(index);
      }
      probing = false;
      await prober;
      rollingRestart = outcome;
    }

    fleet.stopPublishing();
    clearInterval(progress);
    const endedAt = Date.now();
    log(`published ${fleet.sent()}; waiting for the acknowledgements`);
    for (const deadline = Date.now() + 20_000; fleet.acks.length < fleet.sent() && Date.now() < deadline;) await sleep(200);

    // Every scheduler occurrence due in the run has run (by whichever instance) before counting.
    const firstMinute = Math.ceil(startedAt / 60_000) * 60_000;
    const lastMinute = Math.floor(endedAt / 60_000) * 60_000;
    const dueOccurrences = schedulerIds.length * Math.max(0, Math.floor((lastMinute - firstMinute) / 60_000) + 1);
    const schedulerRuns = async () => (await db!.systemQuery<{ occurrence: number; runs: number; logs: number }>(sql`
      SELECT (extract(epoch FROM r.occurrence_at) * 1000)::float8 AS occurrence, count(*)::int AS runs,
        (SELECT count(*)::int FROM logs l WHERE l.source = 'scheduler' AND (l.message_data->>'source_id')::int = r.scheduler_id
          AND (l.message_data->>'occurrence')::timestamptz = r.occurrence_at) AS logs
      FROM scheduler_runs r WHERE r.scheduler_id = ANY(${`{${schedulerIds.join(',')}}`}::int[]) GROUP BY r.scheduler_id, r.occurrence_at`))
      .filter((run) => run.occurrence >= firstMinute && run.occurrence <= lastMinute);
    let inRun = await schedulerRuns();
    for (const deadline = Date.now() + 60_000; inRun.length < dueOccurrences && Date.now() < deadline; inRun = await schedulerRuns()) await sleep(500);

    const stored = new Set((await db.systemQuery<{ key: string }>(sql`
      SELECT entity_id || ':' || (extract(epoch FROM ts) * 1000)::bigint AS key FROM telemetry
      WHERE key = 'seq' AND entity_id = ANY(${`{${devices.map((device) => device.id).join(',')}}`}::int[])`)).map((row) => row.key));
    const [{ duplicates }] = await db.systemQuery<{ duplicates: number }>(sql`
      SELECT count(*)::int AS duplicates FROM (SELECT 1 FROM logs WHERE source IN ('watcher', 'scheduler')
        GROUP BY tenant_id, source, entity_id, message, timestamp HAVING count(*) > 1) d`);
    const [{ lighting }] = await db.systemQuery<{ lighting: number }>(sql`
      SELECT count(*)::int AS lighting FROM (SELECT 1 FROM device_commands WHERE source = 'lighting'
        GROUP BY entity_id, date_trunc('minute', created_at) HAVING count(*) > 1) d`);

    const live = liveDelivery(fleet.acks, subscribers.subscribers, MARGIN_MS);
    const downlink = downlinkDelivery(commandsSent, fleet.commands, fleet.spans);
    return {
      instances: options.instances,
      sent: fleet.sent(),
      acknowledged: fleet.acks.length,
      lost: lostPoints(fleet.acks, stored),
      ingestRate: Math.round(fleet.acks.length / ((endedAt - startedAt) / 1000)),
      kills: kills.length,
      slowestReconnectMs: slowestReconnect(kills, fleet.spans.values(), Date.now()),
      expectedUpdates: live.expected,
      missedUpdates: live.missed,
      missedUpdateSamples: live.missedSamples.map((sample) => {
        const kill = kills.filter((at) => at <= sample.at).at(-1);
        return { ...sample, afterKillMs: kill === undefined ? null : sample.at - kill };
      }),
      liveP95Ms: quantile(live.delays, 0.95),
      commands: commandsSent.length,
      commandsMissed: downlink.missed,
      commandP95Ms: quantile(downlink.delays, 0.95),
      schedulerOccurrences: dueOccurrences,
      schedulerMissed: Math.max(0, dueOccurrences - inRun.length),
      schedulerDuplicates: inRun.filter((run) => run.runs !== 1 || run.logs > 1).length,
      duplicateLogRows: duplicates,
      lightingDuplicates: lighting,
      whileDatabaseDown,
      readyAfterDatabaseMs,
      rollingRestart,
    };
  } finally {
    fleet?.close();
    await subscribers?.close();
    await cluster?.stop();
    await db?.close();
    await pg.stop();
  }
}
