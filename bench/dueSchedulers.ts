// Schedulers due at one minute, for bench/engines.ts and bench/schedulers.ts: single runs (avg over
// `last-week` of a demo device's key that has hourly roll-ups that week, written into the attribute
// `bench_week_avg`) made due at the first whole minute at least 45 s on by SQL while the server is
// stopped; then a server started before that minute. Time until all have run: the last
// `scheduler_runs.finished_at` minus the minute, watched meanwhile through GraphQL
// `log_list(source: "scheduler")`. The runs are counted by SQL: one row per scheduler, none twice.
import { cores, fmt, log, openSql, sleep, startServer, watchServer, type Sql, type Target } from './deviceServer.ts';

export const SCHEDULER_ATTRIBUTE = 'bench_week_avg';

export interface WeeklyPair { entity_id: number; key: string }

/** The tenant's device/key pairs with hourly roll-ups in the last calendar week (UTC, the demo tenant's zone). */
export async function weeklyPairs(db: Sql, tenantId: string, limit: number): Promise<WeeklyPair[]> {
  const pairs = await db.query<WeeklyPair>(`SELECT DISTINCT entity_id, key FROM telemetry_hourly
    WHERE tenant_id = '${tenantId}' AND bucket >= date_trunc('week', now()) - interval '7 days' AND bucket < date_trunc('week', now())
    ORDER BY entity_id, key LIMIT ${limit}`);
  if (!pairs.length) throw new Error('no demo roll-ups in the last calendar week');
  return pairs;
}

/** The `POST /create-scheduler` input of the benchmark's scheduler number `i`. */
export function schedulerInput(i: number, pairs: WeeklyPair[]) {
  const { entity_id: entityId, key } = pairs[i % pairs.length];
  return {
    name: `Bench weekly ${key} ${i + 1}`, status: 'active', entity_ids: [entityId],
    definition: { kind: 'single', run_at: '2099-01-01T00:00:00.000Z', aggregation: 'avg', key, time_slot: 'last-week', target_attribute: SCHEDULER_ATTRIBUTE },
  };
}

/** The demo city's admin's access token. */
export async function signIn(base: string): Promise<string> {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@demo.city', password: 'demo1234' }),
  });
  return (await login.json() as { access_token: string }).access_token;
}

async function schedulerLogCount(base: string, token: string): Promise<number> {
  const answer = await fetch(`${base}/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ log_list(source: "scheduler", page: 1, per_page: 1) { meta { pagination { total } } } }' }),
  });
  const body = await answer.json() as { data?: { log_list: { meta: { pagination: { total: number } } } }; errors?: unknown };
  if (!body.data) throw new Error(`log_list answered ${JSON.stringify(body.errors)}`);
  return body.data.log_list.meta.pagination.total;
}

export interface DueRuns {
  due: string;
  runs: { runs: number; schedulers: number; most: number; ok: number; first_s: number; last_s: number };
  logged: number;
  use: ReturnType<ReturnType<typeof watchServer>['finish']>;
}

/** Makes the benchmark's `count` schedulers due at one minute (the server stopped), starts a server and waits until all have run (at most `waitS`). */
export async function runDueSchedulers(target: Target, count: number, waitS: number): Promise<DueRuns> {
  let db = await openSql(target);
  const [{ due }] = await db.query<{ due: string }>(`SELECT to_char(date_trunc('minute', now() + interval '105 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') AS due`);
  await db.query(`UPDATE schedulers SET next_run_at = '${due}'::timestamptz, definition = jsonb_set(definition, '{run_at}', '"${due}"')
    WHERE definition->>'target_attribute' = '${SCHEDULER_ATTRIBUTE}'`);
  await db.close();

  log(`schedulers due at ${due}; starting the server again`);
  const server = await startServer(target);
  const token = await signIn(server.base);
  const before = await schedulerLogCount(server.base, token);
  const dueMs = Date.parse(due);
  await sleep(Math.max(0, dueMs - Date.now()));
  const watch = watchServer(server);
  let logged = 0;
  for (const deadline = dueMs + waitS * 1000; Date.now() < deadline;) {
    logged = (await schedulerLogCount(server.base, token)) - before;
    if (logged >= count) break;
    await sleep(1000);
  }
  const use = watch.finish();
  await sleep(2_000); // a run logged twice would show by now
  await server.stop();

  db = await openSql(target);
  const [runs] = await db.query<DueRuns['runs']>(`SELECT count(*)::float8 AS runs,
      count(DISTINCT r.scheduler_id)::float8 AS schedulers, coalesce(max(n.runs), 0)::float8 AS most, count(*) FILTER (WHERE r.result = 'ok')::float8 AS ok,
      extract(epoch FROM min(r.finished_at) - '${due}'::timestamptz)::float8 AS first_s, extract(epoch FROM max(r.finished_at) - '${due}'::timestamptz)::float8 AS last_s
    FROM schedulers s JOIN scheduler_runs r ON r.scheduler_id = s.id
    JOIN (SELECT scheduler_id, count(*) AS runs FROM scheduler_runs GROUP BY scheduler_id) n ON n.scheduler_id = s.id
    WHERE s.definition->>'target_attribute' = '${SCHEDULER_ATTRIBUTE}'`);
  await db.close();
  return { due, runs, logged, use };
}

/** The table and the goals' line of a scheduler run. */
export function printDueRuns({ runs, logged, use }: DueRuns, count: number, waitS: number) {
  console.log('| runs recorded | schedulers run | most runs of one | ok | first run done after (s) | all done after (s) | seen through log_list within the wait | cores used: server / bench / other processes |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  console.log(`| ${fmt(runs.runs)} | ${fmt(runs.schedulers)} | ${fmt(runs.most)} | ${fmt(runs.ok)} | ${fmt(runs.first_s ?? NaN, 1)} | ${fmt(runs.last_s ?? NaN, 1)} | ${fmt(logged)} of ${fmt(count)} (${waitS} s) | ${cores(use)} |`);
  const allRun = runs.runs === count && runs.schedulers === count && runs.most === 1;
  console.log(`Goals: exactly ${fmt(count)} runs, none twice ${allRun ? 'met' : 'NOT met'}; all within 60 s ${allRun && runs.last_s <= 60 ? 'met' : 'NOT met'}.`);
}
