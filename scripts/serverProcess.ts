// Runs the real Terrasight server as a child process on a free port (benchmarks, tests of what
// only a whole process shows), and finds free ports.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ServerProcess { base: string; stop(): Promise<void> }

/** Starts `server/main.ts` with `env` (PORT and HOST are chosen here) and waits until it answers. */
export async function startServerProcess(env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(root, 'server', 'main.ts')], {
    cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await exited;
  };
  for (const deadline = Date.now() + timeoutMs; ;) {
    if (await fetch(`${base}/api/docs/json`).then((r) => r.ok, () => false)) return { base, stop };
    if (Date.now() > deadline || server.exitCode !== null) {
      await stop();
      throw new Error('The Terrasight server did not start.');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
