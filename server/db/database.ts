// Opens the database (embedded PGlite or a PostgreSQL server), migrates it, and hands out
// transactions. Tenant data is only reachable through `tenantTx`, which runs as the
// non-superuser role `terrasight_app` with `app.tenant_id` set, so row-level security
// scopes every query to one tenant. `systemTx` is for the few cross-tenant lookups
// (sign-in by e-mail, refresh tokens, seeding, device tokens).
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  kind: 'pglite' | 'postgres';
  tenantTx<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
  /** A transaction as the application role with no tenant set: sees no tenant rows. */
  anonymousTx<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  systemTx<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
export const APP_ROLE = 'terrasight_app';

function wrap(kind: Database['kind'], db: Db, close: () => Promise<void>): Database {
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
    return wrap('postgres', db as unknown as Db, () => pool.end());
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = await PGlite.create(options.dataDir === 'memory://' ? undefined : options.dataDir, { relaxedDurability: true });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return wrap('pglite', db as unknown as Db, () => client.close());
}
