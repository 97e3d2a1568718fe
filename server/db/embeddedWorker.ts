// The embedded database (PGlite) on a thread of its own, so that a long statement never holds the
// server's event loop (HTTP, MQTT, WebSockets). It speaks PostgreSQL's wire protocol with the main
// thread (server/db/embeddedDatabase.ts), where node-postgres talks to it exactly as it talks to a
// PostgreSQL server: one driver and one code path for both databases.
//
// PGlite is one session; the main thread's pool opens a few connections to it, so that while one
// statement runs the next ones are already here. Each message of a connection is one whole
// request of node-postgres (a simple query, or Parse…Sync), answered by one message. They run in
// arrival order, except that while a connection's transaction is open only that connection's
// messages run: nothing of another connection slips into it. A connection that ends inside a
// transaction (cut off by a statement timeout) has it rolled back before anything after it runs.
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from './pgliteExtensions.ts';
import { parentPort, workerData } from 'node:worker_threads';

export type ToWorker =
  | { type: 'data'; connection: number; bytes: Uint8Array }
  | { type: 'end'; connection: number }
  | { type: 'close' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; error: WorkerError }
  /** A connection's message begins to run (the main thread times statements from here). */
  | { type: 'running'; connection: number }
  | { type: 'data'; connection: number; bytes: Uint8Array }
  | { type: 'closed' };

/** What every worker of a process starts PGlite from, compiled and read once (PGlite's options of these names). */
export interface PgliteEngine { pgliteWasmModule: WebAssembly.Module; fsBundle: Blob }

/** What the main thread needs of an error to name its cause (server/startupErrors.ts). */
export interface WorkerError { message: string; code?: string; path?: string; syscall?: string }

const port = parentPort!;
const { dataDir, loadDataDir, engine } = workerData as { dataDir: string; loadDataDir?: Blob; engine: PgliteEngine };

const errorOf = (error: unknown): WorkerError => {
  const { message, code, path, syscall } = error as { message?: unknown; code?: unknown; path?: unknown; syscall?: unknown };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { message: text(message) ?? String(error), code: text(code), path: text(path), syscall: text(syscall) };
};

let db: PGlite;
try {
  // fsync off: a killed process loses nothing committed (the pages are with the operating system).
  const memory = dataDir === 'memory://';
  db = await PGlite.create(memory ? undefined : dataDir, { relaxedDurability: true, loadDataDir: memory ? loadDataDir : undefined, extensions: PGLITE_EXTENSIONS, ...engine });
} catch (error) {
  port.postMessage({ type: 'failed', error: errorOf(error) } satisfies FromWorker);
  process.exit(1);
}

/** A simple-query message: 'Q', its length, the text and a NUL. */
function queryMessage(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`);
  const message = Buffer.alloc(5 + body.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}
const ROLLBACK = queryMessage('ROLLBACK');

/** Runs protocol messages and answers every byte PGlite wrote back, in one buffer. */
async function run(bytes: Uint8Array): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  await db.execProtocolRawStream(bytes, {
    syncToFs: false, // the file system PGlite uses here writes through at once
    onRawData: (chunk) => {
      chunks.push(chunk.slice()); // a view into PGlite's memory, reused by the next write
      size += chunk.length;
    },
  });
  if (chunks.length === 1) return chunks[0];
  const answer = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    answer.set(chunk, offset);
    offset += chunk.length;
  }
  return answer;
}

/** The connection whose transaction is open, if one is. */
let owner: number | undefined;
const queue: ToWorker[] = [];
let pumping = false;

/** The next message that may run: the first in line, or while a transaction is open, its connection's first. */
function nextMessage(): ToWorker | undefined {
  if (owner === undefined) return queue.shift();
  const index = queue.findIndex((message) => message.type !== 'close' && message.connection === owner);
  return index < 0 ? undefined : queue.splice(index, 1)[0];
}

async function handle(message: ToWorker) {
  if (message.type === 'data') {
    port.postMessage({ type: 'running', connection: message.connection } satisfies FromWorker);
    let answer: Uint8Array;
    try {
      answer = await run(message.bytes);
    } catch (error) {
      // PGlite itself failed (not an SQL error, which is an ErrorResponse in the answer): nothing
      // more can run on this session.
      port.postMessage({ type: 'failed', error: errorOf(error) } satisfies FromWorker);
      process.exit(1);
    }
    owner = db.isInTransaction() ? message.connection : undefined;
    port.postMessage({ type: 'data', connection: message.connection, bytes: answer } satisfies FromWorker, [answer.buffer as ArrayBuffer]);
  } else if (message.type === 'end') {
    if (owner === message.connection) {
      await run(ROLLBACK);
      owner = undefined;
    }
  } else {
    await db.close();
    port.postMessage({ type: 'closed' } satisfies FromWorker);
    port.close();
  }
}

async function pump() {
  if (pumping) return;
  pumping = true;
  try {
    for (let message = nextMessage(); message; message = nextMessage()) await handle(message);
  } finally {
    pumping = false;
  }
}

port.on('message', (message: ToWorker) => {
  queue.push(message);
  void pump();
});
port.postMessage({ type: 'ready' } satisfies FromWorker);
