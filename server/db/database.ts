// Opens the database (embedded PGlite or a PostgreSQL server), migrates it, and hands out
// transactions. Both are reached the same way: node-postgres and Drizzle's node-postgres driver,
// over TCP to PostgreSQL, or over a socket to the embedded database's worker thread
// (server/db/embeddedDatabase.ts), so a long query never holds the event loop.
// Tenant data is only reachable through `tenantTx`, which runs as the non-superuser role
// `terrasight_app` with `app.tenant_id` set, so row-level security scopes every query to one
// tenant. `systemTx` is for the few cross-tenant lookups (sign-in by e-mail, refresh tokens,
// seeding, device tokens). Every statement has a time limit (`statementTimeoutMs`); background work
// that may take long asks for `LONG_STATEMENT_TIMEOUT_MS`.
import { sql, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { EmbeddedSocket, startEmbeddedDatabase, type EmbeddedDatabase } from './embeddedDatabase.ts';
import { inlineSql, uuidLiteral } from './inlineSql.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Work that may run long (migrations, roll-up builds, retention): its statements may take this long. */
export const LONG_STATEMENT_TIMEOUT_MS = 10 * 60_000;
/** What a statement may take unless it is long work (STATEMENT_TIMEOUT_MS). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/** `longRunning`: background work whose statements may take up to LONG_STATEMENT_TIMEOUT_MS. */
export interface WorkOptions { longRunning?: boolean }

export interface Database {
  kind: 'pglite' | 'postgres';
  tenantTx<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * One read as the tenant, in a single round trip: role, tenant setting and query travel as one
   * simple query (an implicit transaction, so the settings end with it). For the hot reads.
   */
  tenantQuery<T>(tenantId: string, query: SQL): Promise<T[]>;
  /**
   * One statement outside any tenant (row-level security does not apply), in one round trip, its
   * values sent as parameters (a script of several statements only without values).
   */
  systemQuery<T>(query: SQL, options?: WorkOptions): Promise<T[]>;
  /** Calls `listener` with the payload of every notification on `channel`, from any instance. */
  listen(channel: NotificationChannel, listener: (payload: string) => void): Promise<void>;
  /**
   * Calls `handler` when notifications flow again after the listening connection was lost
   * (PostgreSQL): those sent meanwhile never arrive, so what they would have told is to be re-read.
   * `lostAt` is when the connection was lost.
   */
  onListenerRestored(handler: (lostAt: Date) => void): void;
  /** A transaction as the application role with no tenant set: sees no tenant rows. */
  anonymousTx<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  systemTx<T>(work: (tx: Tx) => Promise<T>, options?: WorkOptions): Promise<T>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const dialect = new PgDialect();
export const APP_ROLE = 'terrasight_app';

/** Notification channels between instances (sent inside the changing transaction, delivered on commit). */
export const CHANNELS = {
  /** payload: the session id; sent by authStore when it revokes a session */
  sessionRevoked: 'terrasight_session_revoked',
  /** payload: the API user's id; sent by apiUserQueries when it revokes (or deletes) API tokens */
  apiTokensRevoked: 'terrasight_api_tokens_revoked',
  /** payload: the device's entity id; sent by rotateAccessToken, so every instance closes the device's connections */
  deviceCredentialsRotated: 'terrasight_device_credentials_rotated',
  /** payload: the tenant id; sent by triggers on the tables the cached reads come from (migration 0003) */
  tenantDataChanged: 'terrasight_tenant_data_changed',
  /** payload: `{ t: tenant, c: [command ids] }`; sent where commands are queued, so the instance holding each device's connection sends them */
  deviceCommandsQueued: 'terrasight_device_commands_queued',
  /** payload: `{ t: tenant, e: [entity ids], a: { attributes } }`; sent where shared attributes are set, so they are pushed to the devices wherever connected */
  sharedAttributesChanged: 'terrasight_shared_attributes_changed',
  /** payload: `<batch id>:<origin instance>`; a batch of live events in live_event_batches (server/live/clusterBus.ts) */
  liveEvents: 'terrasight_live_events',
} as const;
export type NotificationChannel = (typeof CHANNELS)[keyof typeof CHANNELS];

export interface OpenOptions {
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string;
  /** PGlite data directory, or `memory://`. */
  dataDir: string;
  /** `memory://` only: start from this dump of a data directory (the bytes of a tar file of PGlite's `dumpDataDir`), already migrated or not. */
  loadDataDir?: Blob;
  /** What a statement may take (ms); DEFAULT_STATEMENT_TIMEOUT_MS when absent. */
  statementTimeoutMs?: number;
  /** Told when the embedded database cut off a statement (and restarted, on a data directory). */
  onEmbeddedTimeout?(restarted: boolean): void;
  /** PostgreSQL: the pool's connections (DEFAULT_POOL_SIZE when absent); the notification listener takes one more. */
  poolSize?: number;
}

/** PostgreSQL connections of an instance's pool by default: with the listener's, 11 of the budget of 20 (docs/operations.md). */
export const DEFAULT_POOL_SIZE = 10;
/** The most DATABASE_POOL_SIZE may ask for: the listener's connection makes the instance's 20. */
export const MAX_POOL_SIZE = 19;

/** Connections to the embedded database's worker. */
const EMBEDDED_CONNECTIONS = 4;

/** How long a request waits for a free connection before it is answered 503. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The rows of the last statement of a simple query (several statements answer a list of results). */
const lastRows = <T>(result: pg.QueryResult | pg.QueryResult[]) => (Array.isArray(result) ? result[result.length - 1] : result).rows as T[];

/**
 * Lets a connection's statements take `ms` (PostgreSQL: the session's statement_timeout; the
 * embedded database: its socket's limit) until the returned function restores the usual one.
 */
async function lengthened(client: pg.PoolClient, ms: number): Promise<() => Promise<void>> {
  const socket = (client as unknown as { connection: { stream: unknown } }).connection.stream;
  if (socket instanceof EmbeddedSocket) {
    const before = socket.statementTimeoutMs;
    socket.statementTimeoutMs = ms;
    return async () => {
      socket.statementTimeoutMs = before;
    };
  }
  await client.query(`SET statement_timeout = ${ms}`);
  return async () => {
    await client.query('RESET statement_timeout');
  };
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  let embedded: EmbeddedDatabase | undefined;
  let pool: pg.Pool;
  const sessionChannels = sessionListener(() => pool);
  if (options.databaseUrl) {
    pool = new pg.Pool({
      connectionString: options.databaseUrl, max: options.poolSize ?? DEFAULT_POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, statement_timeout: statementTimeoutMs,
    });
  } else {
    embedded = await startEmbeddedDatabase({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, statementTimeoutMs, onTimeout: options.onEmbeddedTimeout });
    // PGlite is one session; a few connections keep the next statements waiting in the worker
    // while one runs (it lets no other connection into an open transaction). Kept open.
    pool = new pg.Pool({
      max: EMBEDDED_CONNECTIONS, idleTimeoutMillis: 0, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, user: 'postgres', database: 'postgres',
      stream: () => embedded!.socket(),
      // Each new connection listens before it serves (the session is new after the worker was replaced).
      onConnect: (client: pg.ClientBase) => sessionChannels.connected(client),
    } as pg.PoolConfig);
  }
  // A connection that is lost (restart, failover, admin) must not crash the process, idle or in
  // use: its query fails, and the pool replaces it on the next one.
  const lost = (error: Error) => console.warn(`Database connection lost: ${error.message}`);
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  const db = drizzle(pool, { schema }) as unknown as Db;
  const listener = embedded ? sessionChannels : connectionListener(options.databaseUrl!);
  let closing: Promise<void> | undefined;

  /** Runs `work` on a connection of its own whose statements may take LONG_STATEMENT_TIMEOUT_MS. */
  async function long<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const restore = await lengthened(client, LONG_STATEMENT_TIMEOUT_MS);
      try {
        return await work(client);
      } finally {
        await restore().catch((error: Error) => (broken = error)); // a connection that cannot restore it is not reused
      }
    } finally {
      client.release(broken);
    }
  }
  /** A statement with its parameters (none: a script of several statements may be sent). */
  const statement = async <T>(text: string, params: unknown[] = [], options: WorkOptions = {}): Promise<T[]> =>
    lastRows<T>(options.longRunning ? await long((client) => client.query(text, params)) : await pool.query(text, params));

  try {
    await long(async (client) => migrate(drizzle(client, { schema }), { migrationsFolder }));
    // PGlite has no autovacuum: without fresh statistics the planner takes every table for two rows
    // and picks nested loops that cost milliseconds. The seed analyzes again after filling.
    if (embedded) await statement('ANALYZE', [], { longRunning: true });
  } catch (error) {
    await pool.end().catch(() => {});
    await embedded?.close().catch(() => {});
    throw error;
  }

  const asApp = <T>(tenantId: string | null, work: (tx: Tx) => Promise<T>) =>
    db.transaction(async (tx) => {
      // one round trip: under a flood of writes each one waits its turn on the embedded database
      const tenant = tenantId ? `; SELECT set_config('app.tenant_id', ${uuidLiteral(tenantId)}, true)` : '';
      await tx.execute(sql.raw(`SET LOCAL ROLE ${APP_ROLE}${tenant}`));
      return work(tx);
    });
  return {
    kind: embedded ? 'pglite' : 'postgres',
    tenantTx: (tenantId, work) => {
      if (!tenantId) throw new Error('tenantTx needs a tenant id');
      return asApp(tenantId, work);
    },
    tenantQuery: (tenantId, query) =>
      statement(`SET LOCAL ROLE ${APP_ROLE}; SELECT set_config('app.tenant_id', ${uuidLiteral(tenantId)}, true); ${inlineSql(query)}`),
    systemQuery: (query, workOptions) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return statement(text, params, workOptions);
    },
    listen: listener.listen,
    onListenerRestored: listener.onRestored,
    anonymousTx: (work) => asApp(null, work),
    systemTx: (work, workOptions) => workOptions?.longRunning
      ? long((client) => drizzle(client, { schema }).transaction((tx) => work(tx as unknown as Tx)))
      : db.transaction(work),
    // Once: a second call (a test's cleanup after a failure, a signal during a stop) waits for the first.
    close: () => (closing ??= (async () => {
      await listener.close();
      await pool.end();
      await embedded?.close();
    })()),
  };
}

interface Listener {
  listen(channel: string, handler: (payload: string) => void): Promise<void>;
  onRestored(handler: (lostAt: Date) => void): void;
  close(): Promise<void>;
}

/** The handlers of each channel, called with a notification's payload. */
function dispatcher() {
  const handlers = new Map<string, ((payload: string) => void)[]>();
  return {
    channels: () => [...handlers.keys()],
    add(channel: string, handler: (payload: string) => void) {
      handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
    },
    deliver(message: pg.Notification) {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    },
  };
}

const listenAll = async (client: pg.ClientBase, channels: string[]) => {
  for (const channel of channels) await client.query(`LISTEN ${channel}`);
};

/**
 * Pauses between reconnection attempts of the listening connection: 250 ms, doubling up to 5 s
 * (what is announced meanwhile is read or sent again once it is back, so it is missed for no longer).
 */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 5_000;

/**
 * PostgreSQL: LISTEN needs a connection of its own, outside the pool. When it is lost it is opened
 * again, after a pause that grows with each failed attempt.
 */
function connectionListener(databaseUrl: string): Listener {
  const channels = dispatcher();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  let pauseMs = RECONNECT_FIRST_MS;
  /** When the connection was lost, until it is back. */
  let lostAt: Date | undefined;
  const restoredHandlers: ((lostAt: Date) => void)[] = [];
  const reconnectLater = () => {
    if (closed) return;
    lostAt ??= new Date();
    setTimeout(() => void connect().catch(reconnectLater), pauseMs).unref();
    pauseMs = Math.min(pauseMs * 2, RECONNECT_MAX_MS);
  };
  const connect = (): Promise<pg.Client> => {
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      next.on('notification', channels.deliver);
      next.on('error', () => {
        if (client === next) client = undefined;
        next.end().catch(() => {});
        reconnectLater();
      });
      try {
        await next.connect();
        await listenAll(next, channels.channels());
      } catch (error) {
        next.end().catch(() => {});
        throw error;
      } finally {
        connecting = undefined;
      }
      pauseMs = RECONNECT_FIRST_MS;
      client = next;
      if (lostAt) {
        const since = lostAt;
        lostAt = undefined;
        for (const handler of restoredHandlers) handler(since);
      }
      return next;
    })();
    return connecting;
  };
  return {
    async listen(channel, handler) {
      channels.add(channel, handler);
      await listenAll(client ?? await connect(), [channel]); // a second LISTEN of a channel changes nothing
    },
    onRestored(handler) {
      restoredHandlers.push(handler);
    },
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}

/**
 * The embedded database is one session: its notifications arrive on whichever connection of the
 * pool carries the answer they come with. Every new connection listens to every channel before it
 * serves (`connected`, the pool's onConnect): after the worker was replaced, the session is new.
 */
function sessionListener(pool: () => pg.Pool): Listener & { connected(client: pg.ClientBase): Promise<void> } {
  const channels = dispatcher();
  return {
    async connected(client) {
      client.on('notification', channels.deliver);
      await listenAll(client, channels.channels());
    },
    async listen(channel, handler) {
      channels.add(channel, handler);
      await pool().query(`LISTEN ${channel}`);
    },
    onRestored() {}, // one process, one session: its notifications are its own, told in-process too
    async close() {},
  };
}
