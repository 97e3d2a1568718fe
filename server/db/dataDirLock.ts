// PGlite has one connection and no protection against two processes opening one data
// directory, so the server holds a lock file there while it runs.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock or throws a clear error naming the process that holds it; returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'terrasight.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && processAlive(holder)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another Terrasight process (pid ${holder}). Stop it, or set DATA_DIR to another directory.`);
      }
      rmSync(file, { force: true }); // left behind by a process that died
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}
