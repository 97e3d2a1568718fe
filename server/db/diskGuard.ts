// The embedded database writes into DATA_DIR with fsync off; if the disk fills under it, PGlite
// cannot finish a WAL segment or a checkpoint and stops for good. So the server checks the free
// space itself and, below a reserve, answers 503 before touching the database: nothing is
// acknowledged that could be lost, and service resumes as soon as space is freed.
import { statfs } from 'node:fs/promises';

/** Space kept free for PGlite: a WAL segment (16 MB), a checkpoint and the temporary files of a query. */
export const DISK_RESERVE_BYTES = 64 * 1024 * 1024;
/** How long a reading of the free space is reused (the check runs on every request). */
const RECHECK_MS = 1000;

export interface DiskGuard {
  /** Whether the free space is below the reserve, from a reading at most `maxAgeMs` old. */
  isFull(maxAgeMs?: number): Promise<boolean>;
}

export function diskGuard(dataDir: string, reserveBytes = DISK_RESERVE_BYTES, now = () => Date.now()): DiskGuard {
  let checkedAt = -Infinity;
  let full = false;
  let pending: Promise<boolean> | undefined;
  const check = async () => {
    try {
      const stats = await statfs(dataDir);
      full = stats.bavail * stats.bsize < reserveBytes;
    } catch {
      full = false; // cannot tell: let the database answer for itself
    }
    checkedAt = now();
    pending = undefined;
    return full;
  };
  return {
    isFull: (maxAgeMs = RECHECK_MS) => (now() - checkedAt < maxAgeMs ? Promise.resolve(full) : (pending ??= check())),
  };
}
