// PGlite has one connection and no protection against two processes opening one data
// directory, so the server holds a lock file there while it runs. The file names the holder's
// pid and, on Linux, the holder's start time, so a lock left by a dead server is taken over even
// when its pid now belongs to another process (or to us: pid 1 in a container).
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {}

interface LockRecord { pid: number; started?: string }

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const readProc = (pid: number, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
};

/** The process's start time in clock ticks since boot (Linux), which tells a reused pid apart. */
export function processStartTime(pid: number): string | undefined {
  const stat = readProc(pid, 'stat');
  // Fields after the command name (which may hold spaces) start at field 3; starttime is field 22.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** The command line of a running Terrasight process that opens the data directory (npm start, the server itself, the dev runner, the large-city seed). */
const TERRASIGHT_COMMAND = /terrasight|server\/main\.ts|scripts\/(start|dev|seedCity)\.ts/;

function parseLock(text: string): LockRecord | undefined {
  try {
    const record = JSON.parse(text) as LockRecord | number;
    if (typeof record === 'number') return { pid: record }; // the older format: the pid alone
    return Number.isInteger(record?.pid) && record.pid > 0 ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the lock's holder is a Terrasight server that still runs. */
export function holderIsLive(record: LockRecord): boolean {
  if (record.pid === process.pid || !processAlive(record.pid)) return false;
  const started = processStartTime(record.pid);
  if (started !== undefined && record.started !== undefined) return started === record.started;
  const command = readProc(record.pid, 'cmdline');
  return command === undefined || TERRASIGHT_COMMAND.test(command.replaceAll('\0', ' '));
}

/** Takes the lock or throws a clear error naming the process that holds it; returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'terrasight.lock');
  const own: LockRecord = { pid: process.pid, started: processStartTime(process.pid) };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(own));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = parseLock(readFileSync(file, 'utf8'));
      if (holder && holderIsLive(holder)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another Terrasight process (pid ${holder.pid}). Stop it, or set DATA_DIR to another directory.`);
      }
      rmSync(file, { force: true }); // left behind by a server that is gone
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}
