// Start-up failures end with exit code 1 and one plain sentence naming the path or host and the
// cause — never a stack trace. Each case starts the real server as a process.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'terrasight-startup-'));
const mounts: string[] = [];
afterAll(() => {
  for (const mount of mounts) spawnSync('umount', [mount]);
  rmSync(scratch, { recursive: true, force: true });
});

function start(env: Record<string, string>) {
  const result = spawnSync(process.execPath, [join(root, 'server', 'main.ts')], {
    cwd: root, encoding: 'utf8', timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', MQTT_PORT: '0', SEED: 'none', SIMULATE: 'off', ...env },
  });
  return { code: result.status, stderr: result.stderr.trim() };
}

function expectOneSentence(stderr: string, ...parts: (string | RegExp)[]) {
  expect(stderr.split('\n')).toHaveLength(1);
  expect(stderr).toMatch(/^Terrasight cannot start: .+\.$/);
  expect(stderr).not.toMatch(/\n\s+at |node:internal|Error:/);
  for (const part of parts) expect(stderr).toMatch(part);
}

/** A small tmpfs (root only); undefined where mounting is not allowed. */
function tmpfs(name: string, options: string): string | undefined {
  const dir = join(scratch, name);
  mkdirSync(dir);
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]).status !== 0) return undefined;
  mounts.unshift(dir);
  return dir;
}

describe('start-up failures', () => {
  it('DATA_DIR is a file', () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a directory');
    const { code, stderr } = start({ DATA_DIR: file });
    expect(code).toBe(1);
    expectOneSentence(stderr, file, 'it is not a directory');
  });

  const readOnly = tmpfs('read-only', 'ro,size=1m');
  it('DATA_DIR on a read-only file system', ({ skip }) => {
    skip(!readOnly, 'needs root to mount a read-only tmpfs');
    const { code, stderr } = start({ DATA_DIR: join(readOnly!, 'data') });
    expect(code).toBe(1);
    expectOneSentence(stderr, join(readOnly!, 'data'), 'read-only');
  });

  const full = tmpfs('full', 'size=64k');
  it('DATA_DIR on a full disk', ({ skip }) => {
    skip(!full, 'needs root to mount a small tmpfs');
    writeFileSync(join(full!, 'filler'), Buffer.alloc(64 * 1024 - 1));
    const { code, stderr } = start({ DATA_DIR: join(full!, 'data') });
    expect(code).toBe(1);
    expectOneSentence(stderr, join(full!, 'data'), 'the disk is full');
  });

  it('DATABASE_URL that refuses connections: host named, password not', () => {
    const { code, stderr } = start({ DATABASE_URL: 'postgres://terrasight:s3cret-pass@127.0.0.1:1/terrasight', JWT_SECRET: 'a'.repeat(40) });
    expect(code).toBe(1);
    expectOneSentence(stderr, '127.0.0.1:1/terrasight', 'refused');
    expect(stderr).not.toContain('s3cret-pass');
  });

  it('a second server on a data directory in use', () => {
    const dataDir = join(scratch, 'in-use');
    mkdirSync(dataDir);
    // The lock of a live Terrasight server: this very test runner is alive; its command line says vitest,
    // so write a lock naming a live process whose command line is the server's.
    const holder = spawnSync(process.execPath, ['-e', `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'server/main.ts'], { detached: true, stdio: 'ignore' });
      child.unref(); console.log(child.pid);`], { encoding: 'utf8' });
    const pid = Number(holder.stdout.trim());
    try {
      writeFileSync(join(dataDir, 'terrasight.lock'), JSON.stringify({ pid }));
      const { code, stderr } = start({ DATA_DIR: dataDir });
      expect(code).toBe(1);
      expectOneSentence(stderr, dataDir, `pid ${pid}`);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});
