// Starts a throw-away PostgreSQL server from the Debian packages (`apt-get install postgresql`)
// for the PostgreSQL leg of `npm test`: a fresh cluster in a temporary directory, trust
// authentication on 127.0.0.1 only, fsync off. `stop()` shuts it down and removes the directory.
//
// Run directly (`node scripts/postgres.ts`) it prints the URL and keeps the server up until Ctrl-C.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './serverProcess.ts';

export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, superuser). */
  url: string;
  /** Major version of the server binaries used. */
  version: number;
  stop(): Promise<void>;
  /**
   * Stops the server (fast shutdown: clients disconnected, committed work kept), runs `whileDown`,
   * and starts it again on the same port.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
}

const MIN_VERSION = 15;
const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The `bin` directory of the newest Debian PostgreSQL (≥ 15), or `POSTGRES_BIN_DIR` if set. */
export function findPostgresBinaries(): { binDir: string; version: number } | null {
  const override = process.env.POSTGRES_BIN_DIR;
  if (override) {
    if (!existsSync(join(override, 'initdb'))) throw new Error(`POSTGRES_BIN_DIR=${override} has no initdb`);
    const version = Number(/(\d+)/.exec(override)?.[1] ?? MIN_VERSION);
    return { binDir: override, version };
  }
  if (!existsSync(DEBIAN_ROOT)) return null;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((version) => version >= MIN_VERSION && existsSync(join(DEBIAN_ROOT, String(version), 'bin', 'initdb')))
    .sort((a, b) => b - a);
  return versions.length ? { binDir: join(DEBIAN_ROOT, String(versions[0]), 'bin'), version: versions[0] } : null;
}

/** PostgreSQL refuses to run as root: as root, run its programs as the `postgres` system user. */
function asServerUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['runuser', ['-u', 'postgres', '--', command, ...args]];
}

function postgresUserExists(): boolean {
  return spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status === 0;
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const { default: pg } = await import('pg');
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`postgres exited (${child.exitCode ?? child.signalCode}) before accepting connections:\n${tail(logFile)}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      lastError = error;
      await client.end().catch(() => {});
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`postgres did not accept connections within ${timeoutMs / 1000} s (${String(lastError)}):\n${tail(logFile)}`);
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

function serverPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Starts a fresh PostgreSQL cluster; returns null when no PostgreSQL ≥ 15 binaries are installed.
 * Throws when binaries exist but the server cannot be started (that is a real failure).
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres | null> {
  const found = findPostgresBinaries();
  if (!found) return null;
  const { binDir, version } = found;
  const runningAsRoot = process.getuid?.() === 0;
  if (runningAsRoot && !postgresUserExists()) {
    throw new Error('Running as root, but there is no "postgres" system user to run PostgreSQL as (it is created by the Debian package).');
  }

  const dir = mkdtempSync(join(tmpdir(), 'terrasight-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    if (runningAsRoot) {
      chmodSync(dir, 0o700);
      const chown = spawnSync('chown', ['postgres:', dir], { encoding: 'utf8' });
      if (chown.status !== 0) throw new Error(`chown postgres ${dir} failed: ${chown.stderr}`);
    }
    const [initCmd, initArgs] = asServerUser(join(binDir, 'initdb'), [
      '-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync',
    ]);
    const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed (${init.status}):\n${init.stdout}\n${init.stderr}`);
  } catch (error) {
    removeDir();
    throw error;
  }

  const port = await freePort();
  const [cmd, args] = asServerUser(join(binDir, 'postgres'), [
    '-D', dataDir, '-p', String(port), '-k', dir,
    '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off',
    '-c', 'full_page_writes=off', '-c', 'max_connections=200', '-c', 'logging_collector=off',
  ]);
  /** Starts the server on the cluster; answers the process and its end. */
  const launch = () => {
    // The server writes its log to stderr; keep it in a file for error messages.
    const logFd = openSync(logFile, 'a');
    const child = spawn(cmd, args, { stdio: ['ignore', logFd, logFd] });
    closeSync(logFd);
    return { child, exited: new Promise<void>((resolveExit) => child.once('exit', () => resolveExit())) };
  };
  let server = launch();

  let stopping: Promise<void> | undefined;
  const killNow = () => {
    // runuser may not forward signals: signal the postmaster itself, then its parent.
    const pid = serverPid(dataDir);
    for (const target of [pid, server.child.pid]) {
      if (!target) continue;
      try {
        process.kill(target, 'SIGQUIT');
      } catch { /* already gone */ }
    }
  };
  const onExit = () => {
    // The process is exiting without (or in the middle of) stop(): no waiting possible here.
    killNow();
    removeDir();
  };
  process.once('exit', onExit);

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  /** Fast shutdown: clients are disconnected, committed work is kept. */
  const shutDownServer = async () => {
    const { child, exited } = server;
    if (child.exitCode === null && child.signalCode === null) {
      const pid = serverPid(dataDir);
      try {
        process.kill(pid ?? child.pid!, 'SIGINT');
      } catch { /* already gone */ }
      const timer = setTimeout(killNow, 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const shutDown = async () => {
    await shutDownServer();
    removeDir();
    process.off('exit', onExit);
  };
  // Every caller waits for the same shutdown.
  const stop = () => (stopping ??= shutDown());
  const restart = async (whileDown?: () => Promise<void>) => {
    await shutDownServer();
    await whileDown?.();
    server = launch();
    await waitUntilReady(url, server.child, logFile, 60_000);
  };

  try {
    await waitUntilReady(url, server.child, logFile, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, version, stop, restart };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = await startThrowawayPostgres();
  if (!server) {
    console.error(`No PostgreSQL ${MIN_VERSION}+ binaries under ${DEBIAN_ROOT}/*/bin. Install them with: apt-get install -y postgresql`);
    process.exit(1);
  }
  console.log(`PostgreSQL ${server.version} is running at ${server.url} (Ctrl-C stops it and removes its data)`);
  const shutdown = async () => {
    await server.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
