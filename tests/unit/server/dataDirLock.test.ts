import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, processStartTime } from '../../../server/db/dataDirLock.ts';

let dir: string;
const children: ChildProcess[] = [];
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A process that stays alive, its command line looking like a Terrasight server or not. */
async function liveProcess(looksLikeTerrasight: boolean): Promise<number> {
  const args = ['-e', 'setInterval(() => {}, 1000)', ...(looksLikeTerrasight ? ['server/main.ts'] : [])];
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child.pid!;
}

const lockFile = () => join(dir, 'terrasight.lock');
const writeLock = (content: unknown) => writeFileSync(lockFile(), typeof content === 'string' ? content : JSON.stringify(content));

describe('lockDataDir', () => {
  it('writes its pid and start time, and frees the directory on release', () => {
    dir = mkdtempSync(join(tmpdir(), 'terrasight-lock-'));
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toEqual({ pid: process.pid, started: processStartTime(process.pid) });
    release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('refuses while another live Terrasight server holds the lock, and takes over once it is gone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'terrasight-lock-'));
    const pid = await liveProcess(true);
    writeLock({ pid, started: processStartTime(pid) });
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by another Terrasight process \\(pid ${pid}\\)`));
    children.pop()!.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    lockDataDir(dir)();
  });

  it.each([
    ['a process that no longer runs', async () => ({ pid: 999_999_999 })],
    ['our own pid (pid 1 in a container, restarted)', async () => ({ pid: process.pid, started: 'another-boot' })],
    ['a reused pid: alive, but started at another time', async () => ({ pid: await liveProcess(true), started: '1' })],
    ['a live process that is not a Terrasight server (older lock format)', async () => String(await liveProcess(false))],
  ])('takes over a lock left by %s', async (_case, record) => {
    dir = mkdtempSync(join(tmpdir(), 'terrasight-lock-'));
    writeLock(await record());
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    release();
  });
});
