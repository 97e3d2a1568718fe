// `node bench/cluster.ts [--instances 3] [--devices 100] [--rate 1000] [--duration 300] [--kill-every 20]
// [--postgres-restart-at 60] [--subscribers 6] [--schedulers 10] [--command-every 500] [--no-rolling-restart]`
// (`npm run bench:cluster`). Several instances behind HAProxy on one throw-away PostgreSQL (Debian's
// `postgresql` and `haproxy`), under fire: devices publish QoS 1 through the balancer, subscribers
// listen through it, operators' commands go to lamps through it, schedulers and a watcher run; a
// random instance is killed with SIGKILL every `--kill-every` seconds (0: never) and started again,
// and PostgreSQL restarts once (`--postgres-restart-at`, seconds; -1: never); then every instance is
// restarted in turn (SIGTERM) while a client reads and writes. Prints what became of every
// acknowledged point, scheduler occurrence, log row, live update and command (scripts/clusterRun.ts),
// the delays' p95, the ingest rate, and the machine. `--compare` runs 1 and then `--instances`
// instances without fire and prints both ingest rates.
import { runCluster, type ClusterRunOptions } from '../scripts/clusterRun.ts';
import { machineLine } from './launch.ts';
import { numberArgument } from './arguments.ts';

const log = (line: string) => console.error(`[bench ${(performance.now() / 1000).toFixed(1)} s] ${line}`);

const instances = numberArgument('--instances', 3);
const killEvery = numberArgument('--kill-every', 20);
const restartAt = numberArgument('--postgres-restart-at', 60);
const base: ClusterRunOptions = {
  instances,
  devices: numberArgument('--devices', 100),
  ratePerSecond: numberArgument('--rate', 1_000),
  durationMs: numberArgument('--duration', 300) * 1_000,
  subscribers: numberArgument('--subscribers', 6),
  schedulers: numberArgument('--schedulers', 10),
  commandEveryMs: numberArgument('--command-every', 500),
  log,
};

console.log(machineLine());
if (process.argv.includes('--compare')) {
  for (const count of [1, instances]) {
    const report = await runCluster({ ...base, instances: count, subscribers: 0, schedulers: 0, commandEveryMs: undefined });
    console.log(`${count} instance(s): ${report.ingestRate} acknowledged points/s of ${base.ratePerSecond} offered; ${report.lost} lost`);
  }
} else {
  const report = await runCluster({
    ...base,
    killEveryMs: killEvery > 0 ? killEvery * 1_000 : undefined,
    postgresRestartAtMs: restartAt >= 0 ? restartAt * 1_000 : undefined,
    rollingRestart: !process.argv.includes('--no-rolling-restart'),
  });
  console.log(JSON.stringify(report, null, 2));
}
