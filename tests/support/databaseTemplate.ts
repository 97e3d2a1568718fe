// The demo database, migrated and seeded once per run of the API tests (their global setup) and
// copied for each test app: on PostgreSQL a template database (`CREATE DATABASE … TEMPLATE`), on
// the embedded database a dump of a data directory that each copy loads into memory. A new
// embedded database takes about 6 s to initialise, migrate and seed on two cores; a copy about 1 s.
// A worker of the tests reads the dump once and hands every copy the same bytes.
import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { PGLITE_EXTENSIONS } from '../../server/db/pgliteExtensions.ts';
import { seedDemoIfEmpty } from '../../server/seed/demoSeed.ts';

export interface DatabaseTemplate {
  /** The template database's name (PostgreSQL), or the dump's path (embedded). */
  reference: string;
  remove(): Promise<void>;
}

/** Runs one statement on the server's maintenance database (CREATE and DROP DATABASE). */
async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

export interface ServerDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A new database on the PostgreSQL server at `serverUrl`, named `prefix` and a random suffix:
 * empty, or a copy of the database `template`.
 */
export async function createDatabase(serverUrl: string, prefix: string, template?: string): Promise<ServerDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const migratedAndSeeded = async (db: Database) => {
  try {
    await seedDemoIfEmpty(db); // openDatabase migrated it
  } finally {
    await db.close();
  }
};

/** Builds the template: on the PostgreSQL server at `serverUrl`, else as an embedded dump. */
export async function buildDatabaseTemplate(serverUrl?: string): Promise<DatabaseTemplate> {
  if (serverUrl) {
    const template = await createDatabase(serverUrl, 'terrasight_template');
    await migratedAndSeeded(await openDatabase({ databaseUrl: template.url, dataDir: 'memory://' }));
    return { reference: template.name, remove: template.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'terrasight-template-'));
  const dataDir = join(dir, 'data');
  await migratedAndSeeded(await openDatabase({ dataDir }));
  const pglite = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS });
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = join(dir, 'demo.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  rmSync(dataDir, { recursive: true, force: true });
  return { reference: file, remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

export interface DatabaseCopy {
  db: Database;
  /** The copy's address (PostgreSQL only), for a server process on the same data. */
  url?: string;
  /** Closes the database and removes the copy. */
  drop(): Promise<void>;
}

/** The embedded dumps read so far, by path: every copy a worker makes loads the same bytes. */
const dumps = new Map<string, Promise<Blob>>();

/**
 * A new copy of the template `reference`: a database on the PostgreSQL server at `serverUrl`
 * (dropped by `drop`), else an embedded `memory://` database loaded from the dump.
 */
export async function copyOfTemplate(reference: string, serverUrl: string | undefined, statementTimeoutMs?: number): Promise<DatabaseCopy> {
  if (!serverUrl) {
    if (!dumps.has(reference)) dumps.set(reference, readFile(reference).then((bytes) => new Blob([bytes])));
    const db = await openDatabase({ dataDir: 'memory://', loadDataDir: await dumps.get(reference)!, statementTimeoutMs });
    return { db, drop: () => db.close() };
  }
  const copy = await createDatabase(serverUrl, 'terrasight_test', reference);
  const db = await openDatabase({ databaseUrl: copy.url, dataDir: 'memory://', statementTimeoutMs });
  return {
    db,
    url: copy.url,
    drop: async () => {
      await db.close();
      await copy.drop();
    },
  };
}
