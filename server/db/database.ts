// Opens the database (embedded PGlite or a PostgreSQL server), migrates it, and hands out
// transactions. Tenant data is only reachable through `tenantTx`, which runs as the
// non-superuser role `terrasight_app` with `app.tenant_id` set, so row-level security
// scopes every query to one tenant. `systemTx` is for the few cross-tenant lookups
// (sign-in by e-mail, refresh tokens, seeding, device tokens).
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { fileURLToPath } from 'node:url';
import { inlineSql, uuidLiteral } from './inlineSql.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  kind: 'pglite' | 'postgres';
  tenantTx<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * One read as the tenant, in a single round trip: role, tenant setting and query travel as one
   * simple query (an implicit transaction, so the settings end with it). For the hot reads.
   */
  tenantQuery<T>(tenantId: string, query: SQL): Promise<T[]>;
  /** One statement outside any tenant (row-level security does not apply), in one round trip. */
  systemQuery<T>(query: SQL): Promise<T[]>;
  /** Calls `listener` with the payload of every notification on `channel`, from any instance. */
  listen(channel: NotificationChannel, listener: (payload: string) => void): Promise<void>;
  /** A transaction as the application role with no tenant set: sees no tenant rows. */
  anonymousTx<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  systemTx<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
export const APP_ROLE = 'terrasight_app';

/** Runs a simple query (possibly several statements) and answers the rows of the last one. */
type SimpleQuery = <T>(text: string) => Promise<T[]>;
type Listen = (channel: string, listener: (payload: string) => void) => Promise<void>;

/** Notification channels between instances (sent inside the changing transaction, delivered on commit). */
export const CHANNELS = {
  /** payload: the session id; sent by authStore when it revokes a session */
  sessionRevoked: 'terrasight_session_revoked',
  /** payload: the device's entity id; sent by rotateAccessToken, so every instance closes the device's connections */
  deviceCredentialsRotated: 'terrasight_device_credentials_rotated',
  /** payload: the tenant id; sent by triggers on the tables the cached reads come from (migration 0003) */
  tenantDataChanged: 'terrasight_tenant_data_changed',
} as const;
export type NotificationChannel = (typeof CHANNELS)[keyof typeof CHANNELS];

function wrap(kind: Database['kind'], db: Db, simpleQuery: SimpleQuery, listen: Listen, close: () => Promise<void>): Database {
  const asApp = <T>(tenantId: string | null, work: (tx: Tx) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL ROLE ${APP_ROLE}`));
      if (tenantId) await tx.execute(sql`SELECT set_config('app.tenant_id', ${tenantId}, true)`);
      return work(tx);
    });
  return {
    kind,
    tenantTx: (tenantId, work) => {
      if (!tenantId) throw new Error('tenantTx needs a tenant id');
      return asApp(tenantId, work);
    },
    tenantQuery: (tenantId, query) =>
      simpleQuery(`SET LOCAL ROLE ${APP_ROLE}; SELECT set_config('app.tenant_id', ${uuidLiteral(tenantId)}, true); ${inlineSql(query)}`),
    systemQuery: (query) => simpleQuery(inlineSql(query)),
    listen,
    anonymousTx: (work) => asApp(null, work),
    systemTx: (work) => db.transaction(work),
    close,
  };
}

export interface OpenOptions {
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string;
  /** PGlite data directory, or `memory://`. */
  dataDir: string;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: 10_000 });
    // An idle connection that the server drops (restart, failover, admin) must not crash the
    // process; the pool replaces it on the next query.
    pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    const simpleQuery: SimpleQuery = async <T>(text: string) => {
      const result = (await pool.query(text)) as unknown as { rows: T[] } | { rows: T[] }[];
      return Array.isArray(result) ? result[result.length - 1].rows : result.rows;
    };
    // LISTEN needs a connection of its own, outside the pool; it reconnects when it is lost.
    let listener: InstanceType<typeof pg.Client> | undefined;
    let closed = false;
    const handlers = new Map<string, ((payload: string) => void)[]>();
    const connectListener = async (): Promise<void> => {
      const client = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 10_000 });
      client.on('notification', (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      client.on('error', () => {
        listener = undefined;
        if (!closed) setTimeout(() => void connectListener().catch(() => {}), 1000).unref();
      });
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${channel}`);
      listener = client;
    };
    const listen: Listen = async (channel, handler) => {
      const known = handlers.has(channel);
      handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
      if (!listener) await connectListener();
      else if (!known) await listener.query(`LISTEN ${channel}`);
    };
    return wrap('postgres', db as unknown as Db, simpleQuery, listen, async () => {
      closed = true;
      await listener?.end();
      await pool.end();
    });
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = await PGlite.create(options.dataDir === 'memory://' ? undefined : options.dataDir, { relaxedDurability: true });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  const simpleQuery: SimpleQuery = async <T>(text: string) => {
    const results = await client.exec(text);
    return results[results.length - 1].rows as T[];
  };
  // PGlite has no autovacuum: without fresh statistics the planner takes every table for two rows
  // and picks nested loops that cost milliseconds. The seed analyzes again after filling.
  await client.exec('ANALYZE');
  const listen: Listen = async (channel, handler) => {
    await client.listen(channel, handler);
  };
  return wrap('pglite', db as unknown as Db, simpleQuery, listen, () => client.close());
}
