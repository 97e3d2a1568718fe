import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '../../../server/db/dataDirLock.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('lockDataDir', () => {
  it('lets one holder in, refuses a second with a clear error, and frees on release', () => {
    dir = mkdtempSync(join(tmpdir(), 'terrasight-lock-'));
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(/in use by another Terrasight process \(pid \d+\)/);
    release();
    expect(existsSync(join(dir, 'terrasight.lock'))).toBe(false);
    lockDataDir(dir)();
  });

  it('takes over a lock left behind by a process that no longer runs', () => {
    dir = mkdtempSync(join(tmpdir(), 'terrasight-lock-'));
    writeFileSync(join(dir, 'terrasight.lock'), '999999999');
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    release();
  });
});
