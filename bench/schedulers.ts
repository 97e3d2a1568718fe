// `node bench/schedulers.ts [--postgres] [--count N] [--wait S]` (`npm run bench:schedulers`)
// The scheduler engine alone: --count 10,000 single-run schedulers of the demo city (each an avg
// over `last-week` of a demo device's key, written into an attribute of that device) due at the
// same minute, on a fresh server process (embedded PGlite, or a throw-away PostgreSQL with
// --postgres). One is made through `POST /create-scheduler`, the rest are its copies made by SQL
// with the server stopped (bench/dueSchedulers.ts: time until all have run, up to --wait 600 s,
// each exactly once). bench/engines.ts runs the same with watchers and devices beside them.
//
// Goal: 10,000 schedulers due at one minute all run within 60 s, each exactly once.
import { totalmem } from 'node:os';
import { fmt, liveServers, log, makeTarget, openSql, prepare, sleep, startServer } from './deviceServer.ts';
import { printDueRuns, runDueSchedulers, schedulerInput, signIn, weeklyPairs, SCHEDULER_ATTRIBUTE } from './dueSchedulers.ts';
import { machineLine } from './launch.ts';
import { numberArgument } from './arguments.ts';

const count = numberArgument('--count', 10000);
const waitS = numberArgument('--wait', 600);

const target = await makeTarget('schedulers', process.argv.includes('--postgres'));
try {
  const [device] = await prepare(target, 1);
  let db = await openSql(target);
  const pairs = await weeklyPairs(db, device.tenant_id, count);
  await db.close();

  const server = await startServer(target);
  const made = await fetch(`${server.base}/create-scheduler`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await signIn(server.base)}` },
    body: JSON.stringify({ input: schedulerInput(0, pairs) }),
  });
  if (!made.ok) throw new Error(`/create-scheduler answered ${made.status}: ${await made.text()}`);
  const { id } = await made.json() as { id: number };
  await server.stop();

  log(`copying scheduler ${id} ${fmt(count - 1)} times`);
  db = await openSql(target);
  const [{ columns }] = await db.query<{ columns: string }>(`SELECT string_agg(quote_ident(column_name), ', ') AS columns
    FROM information_schema.columns WHERE table_name = 'schedulers' AND column_name NOT IN ('id', 'name', 'entity_ids', 'definition')`);
  const pairsJson = JSON.stringify(pairs).replaceAll("'", "''");
  await db.query(`INSERT INTO schedulers (${columns}, name, entity_ids, definition)
    SELECT ${columns}, 'Bench weekly ' || p.key || ' ' || (n + 1), ARRAY[p.entity_id], jsonb_set(s.definition, '{key}', to_jsonb(p.key))
    FROM schedulers s, generate_series(1, ${count - 1}) n,
      LATERAL (SELECT * FROM jsonb_to_recordset('${pairsJson}'::jsonb) AS q(entity_id int, key text) OFFSET n % ${pairs.length} LIMIT 1) p
    WHERE s.id = ${id}`);
  const [{ made: copies }] = await db.query<{ made: number }>(`SELECT count(*)::float8 AS made FROM schedulers WHERE definition->>'target_attribute' = '${SCHEDULER_ATTRIBUTE}'`);
  await db.close();
  if (copies !== count) throw new Error(`${copies} schedulers made, not ${count}`);

  const runs = await runDueSchedulers(target, count, waitS);
  console.log(`\nSchedulers: ${fmt(count)} single runs (avg over last-week of a demo device's key, ${pairs.length} device/key pairs), all due at ${runs.due} — ${target.label} — ${machineLine()} · ${Math.round(totalmem() / 2 ** 30)} GB RAM`);
  printDueRuns(runs, count, waitS);
} finally {
  for (const kill of liveServers) kill();
  await sleep(500);
  await target.cleanup();
}
process.exit(0);
