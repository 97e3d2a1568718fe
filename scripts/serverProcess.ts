// Runs the real Terrasight server as a child process on a free port (benchmarks, tests of what
// only a whole process shows), and finds free ports.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/**
 * Node's options for the server, as `npm start` passes them (package.json; a unit test keeps the
 * two equal). The JavaScript heap is capped: under a flood of device messages V8 otherwise lets
 * garbage pile up to a gigabyte before collecting, while what is alive stays near 120–200 MB.
 */
export const SERVER_NODE_OPTIONS = ['--max-old-space-size=512'];

/** `node <options> server/main.ts`: the arguments that start the server as a process; `nodeOptions` after npm start's (a later one of the same name wins). */
export const serverArguments = (nodeOptions: string[] = []) => [...SERVER_NODE_OPTIONS, ...nodeOptions, join(root, 'server', 'main.ts')];

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

/** Whether nothing listens on the port now. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export interface ServerProcess {
  base: string;
  /** Its process id (benchmarks read its memory). */
  pid: number;
  /** SIGTERM (unless it has ended) and its end. */
  stop(): Promise<void>;
  /** Sends a signal. */
  signal(name: NodeJS.Signals): void;
  /** How it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `server/main.ts` with `env` (HOST is 127.0.0.1; PORT `port`, or a free one) and waits until it answers. */
export async function startServerProcess(env: NodeJS.ProcessEnv, { timeoutMs = 120_000, port: chosenPort }: { timeoutMs?: number; port?: number } = {}): Promise<ServerProcess> {
  const port = chosenPort ?? await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, serverArguments(), {
    cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await exited;
  };
  const signal = (name: NodeJS.Signals) => void server.kill(name);
  for (const deadline = Date.now() + timeoutMs; ;) {
    if (await fetch(`${base}/api/docs/json`).then((r) => r.ok, () => false)) return { base, pid: server.pid!, stop, signal, exited };
    if (Date.now() > deadline || server.exitCode !== null) {
      await stop();
      throw new Error('The Terrasight server did not start.');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
