// A disk that fills while the embedded database runs: 503s with the generic message, nothing
// acknowledged is lost, and service resumes when space is freed. Needs root to mount a small
// tmpfs for DATA_DIR; reported as skipped (not passed) where that is not allowed.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../scripts/serverProcess.ts';
import { DISK_RESERVE_BYTES } from '../../server/db/diskGuard.ts';

const mountPoint = mkdtempSync(join(tmpdir(), 'terrasight-disk-'));
// Room for the demo seed and its 30 days of history (about 250 MB with the WAL), written in the
// background while the test runs: the telemetry writer, too, must wait while the disk is full.
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512m', 'tmpfs', mountPoint]).status === 0;
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  if (mounted) spawnSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

let base = '';
async function start() {
  server = await startServerProcess({
    PATH: process.env.PATH, DATA_DIR: join(mountPoint, 'data'), MQTT_PORT: '0', SEED: 'demo', SIMULATE: 'off', WEB_DIR: mountPoint,
  });
  base = server.base;
}
const stop = () => server?.stop();

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() as any, retryAfter: response.headers.get('retry-after') };
};
/**
 * Fills the disk until `leave` bytes are free, a megabyte at a time: the server writes history
 * beside it, so one write sized from a single reading of the free space could meet ENOSPC.
 */
function fillLeaving(file: string, leave: number) {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(1 << 20);
  try {
    for (;;) {
      const { bavail, bsize } = statfsSync(mountPoint);
      const room = bavail * bsize - leave;
      if (room <= 0) return;
      try {
        writeSync(fd, chunk, 0, Math.min(chunk.length, room));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return; // full: fuller than asked, still full
        throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

const signIn = () => post('/auth/login', { email: 'admin@demo.city', password: 'demo1234' });

describe('a full disk under the embedded database', () => {
  it('answers 503 while full, loses no acknowledged write, and recovers when space is freed', async ({ skip }) => {
    skip(!mounted, 'needs root to mount a tmpfs for DATA_DIR');
    await start();
    const before = await signIn();
    expect(before.status).toBe(200);

    const filler = join(mountPoint, 'filler');
    fillLeaving(filler, DISK_RESERVE_BYTES / 2);
    await new Promise((r) => setTimeout(r, 1100)); // the free-space reading is reused for a second

    const refused = await signIn();
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ error: 'Something went wrong. Try again.', errors: [{ code: 'UNAVAILABLE' }] });
    expect(refused.retryAfter).toBe('5');
    expect((await post('/auth/refresh', { refresh_token: before.body.refresh_token })).status).toBe(503);

    rmSync(filler);
    await new Promise((r) => setTimeout(r, 1100));
    const after = await signIn();
    expect(after.status).toBe(200);

    // Both acknowledged sessions survive a restart; the refused requests left nothing behind.
    await stop();
    await start();
    expect((await post('/auth/refresh', { refresh_token: before.body.refresh_token })).status).toBe(200);
    expect((await post('/auth/refresh', { refresh_token: after.body.refresh_token })).status).toBe(200);
  }, 180_000);
});
