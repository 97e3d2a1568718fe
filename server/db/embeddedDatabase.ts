// The main thread's side of the embedded database (server/db/embeddedWorker.ts): it starts the
// worker and hands node-postgres sockets that carry the wire protocol to it, so the server reaches
// PGlite through `pg` exactly as it reaches a PostgreSQL server.
//
// Statement timeout: PGlite cannot stop a running statement (PostgreSQL's timeout needs a timer
// signal the WASM build does not have), so it is enforced here. A statement that runs longer than
// its socket allows cuts that socket off with PostgreSQL's own error (57014): the caller's query
// fails at once. On a data directory the worker is then replaced (crash recovery, as after kill -9:
// nothing committed is lost, the cut-off transaction is gone), so the runaway statement stops
// holding everyone. A `memory://` database would lose its data that way: there the statement runs
// to its end while what comes after it waits, and the worker then rolls its transaction back.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { FromWorker, PgliteEngine, ToWorker, WorkerError } from './embeddedWorker.ts';

export interface EmbeddedDatabase {
  /** A new socket for node-postgres (`stream` option of a pg Client or Pool). */
  socket(): EmbeddedSocket;
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  /** A directory, or `memory://`. */
  dataDir: string;
  /** `memory://` only: a dump of a data directory (the bytes of PGlite's `dumpDataDir` tar file) to start from. */
  loadDataDir?: Blob;
  /** What a socket allows a statement unless told otherwise (ms). */
  statementTimeoutMs: number;
  /** Told when a statement timed out (and whether the worker was replaced). */
  onTimeout?(restarted: boolean): void;
}

/** PostgreSQL's error for a statement cut off by statement_timeout, so both databases fail alike. */
export function statementTimeoutError(): Error {
  return Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
}
/** The connections a replaced worker held: admin shutdown (57P01), answered with 503 like a lost connection. */
const restartedError = () => Object.assign(new Error('terminating connection: the embedded database restarted'), { code: '57P01' });

const errorFrom = (error: WorkerError) => Object.assign(new Error(error.message), error);

/** A socket to the worker: what pg writes is sent as one message per tick, what the worker answers is read. */
export class EmbeddedSocket extends Duplex {
  /** The longest a statement on this socket may run (ms); long jobs raise it for their own work. */
  statementTimeoutMs: number;
  readonly id: number;
  private readonly host: Host;
  private pending: Buffer[] = [];
  private ended = false;

  constructor(host: Host, id: number, statementTimeoutMs: number) {
    super();
    this.host = host;
    this.id = id;
    this.statementTimeoutMs = statementTimeoutMs;
  }

  // The parts of net.Socket that pg uses.
  connect() {
    process.nextTick(() => this.emit('connect'));
    return this;
  }
  setNoDelay() { return this; }
  setKeepAlive() { return this; }
  ref() { return this; }
  unref() { return this; }

  override _read() {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    // pg writes a statement as several messages (Parse, Bind, Execute, Sync) in one tick: one trip.
    if (this.pending.push(chunk) === 1) queueMicrotask(() => this.flush());
    done();
  }

  private flush() {
    const bytes = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    if (!this.ended) this.host.send(this, bytes);
  }

  override _final(done: (error?: Error | null) => void) {
    if (this.pending.length) this.flush();
    this.finish();
    this.push(null);
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void) {
    this.finish();
    done(error);
  }

  /** Tells the worker this connection is over (once). */
  private finish() {
    if (this.ended) return;
    this.ended = true;
    this.host.end(this);
  }

  /** An answer from the worker. */
  receive(bytes: Uint8Array) {
    if (!this.ended && bytes.length) this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
}

/** The statement the worker is running: whose, since when, and whether it was cut off already. */
interface Running { socket: EmbeddedSocket; since: number; cut?: boolean }

let engine: Promise<PgliteEngine> | undefined;
/**
 * PGlite's WebAssembly, compiled once per process, and its file-system bundle, read once: a worker
 * that compiled its own paid about 3 s of CPU for it (twice what opening the database costs),
 * again at every restart after a statement timeout and for every copy of the test database.
 */
function pgliteEngine(): Promise<PgliteEngine> {
  engine ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all([readFile(join(dist, 'pglite.wasm')), readFile(join(dist, 'pglite.data'))]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })();
  return engine;
}

/** The worker and the messages in flight to it; replaced whole when it stops or must be stopped. */
class Host {
  private worker: Worker | undefined;
  private readonly sockets = new Map<number, EmbeddedSocket>();
  /** Messages the worker has not answered yet. */
  private unanswered = 0;
  private running: Running | undefined;
  /** Messages for a worker being replaced, sent once it runs. */
  private held: [ToWorker, ArrayBuffer[]][] | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closing = false;
  /** Why the database is gone for good (a `memory://` one whose worker stopped). */
  private gone: Error | undefined;
  private readonly options: EmbeddedOptions;

  constructor(options: EmbeddedOptions) {
    this.options = options;
  }

  /** Starts a worker; resolves once it has opened the database, rejects with its reason. */
  async start(): Promise<void> {
    const worker = new Worker(new URL('./embeddedWorker.ts', import.meta.url), { workerData: { dataDir: this.options.dataDir, loadDataDir: this.options.loadDataDir, engine: await pgliteEngine() } });
    this.worker = worker;
    let opened = false;
    return new Promise<void>((resolve, reject) => {
      const stopped = (error: Error) => {
        if (worker !== this.worker || this.closing) return;
        if (!opened) return reject(error);
        this.lost(error);
      };
      worker.on('message', (message: FromWorker) => {
        if (worker !== this.worker) return;
        if (message.type === 'ready') {
          opened = true;
          resolve();
        } else if (message.type === 'running') this.started(message.connection);
        else if (message.type === 'data') this.answered(message.connection, message.bytes);
        else if (message.type === 'failed') stopped(errorFrom(message.error));
      });
      worker.on('error', stopped);
      worker.on('exit', () => stopped(Object.assign(new Error('the embedded database stopped'), { code: '57P01' })));
    });
  }

  socket(): EmbeddedSocket {
    const socket = new EmbeddedSocket(this, this.nextId++, this.options.statementTimeoutMs);
    this.sockets.set(socket.id, socket);
    return socket;
  }

  send(socket: EmbeddedSocket, bytes: Buffer) {
    if (this.gone) return void queueMicrotask(() => socket.destroy(this.gone));
    this.unanswered++;
    // A copy the worker owns (pg's buffers may be slices of a shared pool).
    const copy = new Uint8Array(bytes);
    this.post({ type: 'data', connection: socket.id, bytes: copy }, [copy.buffer]);
    this.watchdog ??= setInterval(() => this.checkTimeout(), 50).unref();
  }

  end(socket: EmbeddedSocket) {
    if (this.sockets.delete(socket.id)) this.post({ type: 'end', connection: socket.id });
  }

  private post(message: ToWorker, transfer: ArrayBuffer[] = []) {
    // A new worker queues what it gets until it has opened the database; one being replaced holds it here.
    if (this.held) this.held.push([message, transfer]);
    else this.worker?.postMessage(message, transfer);
  }

  private started(connection: number) {
    const socket = this.sockets.get(connection);
    this.running = socket ? { socket, since: performance.now() } : undefined;
  }

  private answered(connection: number, bytes: Uint8Array) {
    this.running = undefined;
    if (--this.unanswered === 0) this.stopWatchdog();
    this.sockets.get(connection)?.receive(bytes);
  }

  private stopWatchdog() {
    clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  private checkTimeout() {
    const running = this.running;
    if (!running || running.cut || this.held) return; // cut off already, finishing in the worker; or no worker yet
    if (performance.now() - running.since <= running.socket.statementTimeoutMs) return;
    const replace = this.options.dataDir !== 'memory://';
    this.options.onTimeout?.(replace);
    running.cut = true;
    running.socket.destroy(statementTimeoutError());
    if (replace) this.replace();
  }

  /** The worker failed or stopped by itself: on a data directory a new one takes over. */
  private lost(error: Error) {
    if (this.options.dataDir !== 'memory://') return this.replace(error);
    this.gone = error;
    this.worker = undefined;
    this.stopWatchdog();
    this.unanswered = 0;
    this.running = undefined;
    for (const socket of [...this.sockets.values()]) socket.destroy(error);
  }

  /**
   * Ends the worker (mid-statement, if it must) and opens the data directory again in a new one,
   * once the old one has stopped: two never open it at the same time. Every connection is cut;
   * the pool opens new ones, whose messages wait for the new worker.
   */
  private replace(cause: Error = restartedError()) {
    const old = this.worker;
    this.worker = undefined;
    this.held = [];
    this.unanswered = 0;
    this.running = undefined;
    this.stopWatchdog();
    for (const socket of [...this.sockets.values()]) {
      this.sockets.delete(socket.id);
      socket.destroy(cause);
    }
    const reopen = async () => {
      await old?.terminate();
      if (this.closing) return;
      await this.start();
      const held = this.held ?? [];
      this.held = undefined;
      for (const [message, transfer] of held) this.worker?.postMessage(message, transfer);
    };
    reopen().catch((error: unknown) => {
      // The data directory cannot be opened again: everything waiting fails, and so does what comes.
      this.gone = error as Error;
      this.held = undefined;
      this.worker = undefined;
      for (const socket of [...this.sockets.values()]) socket.destroy(error as Error);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.stopWatchdog();
    const worker = this.worker;
    if (!worker) return;
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'closed') resolve();
      });
      worker.once('exit', () => resolve());
    });
    worker.postMessage({ type: 'close' } satisfies ToWorker);
    await closed;
    await worker.terminate();
  }
}

/** Starts the worker and waits until the database is open (its failure is the caller's). */
export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const host = new Host(options);
  await host.start();
  return {
    socket: () => host.socket(),
    close: () => host.close(),
  };
}
