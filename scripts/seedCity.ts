// `npm run seed:city -- [--devices 1000000] [--chunk 100000]`: adds the synthetic tenant "Big City"
// (server/seed/citySeed.ts; admin@big.city / demo1234) to the database `npm start` uses: DATABASE_URL's
// PostgreSQL, else the embedded one in DATA_DIR (./data), which must not be in use by a running
// server (its lock says so). An empty database is first migrated and seeded as the server does at
// its first start. Progress goes to stderr; the exit status is 1 when nothing (or not all) was added.
import { numberArgument } from '../bench/arguments.ts';
import { ConfigError, databaseLocationFrom, isMemoryDir, seedFrom, statementTimeoutFrom } from '../server/config.ts';
import { lockDataDir } from '../server/db/dataDirLock.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { startupFailureSentence } from '../server/startupErrors.ts';
import { BIG_CITY, CITY_SHARES, CityExistsError, DEFAULT_CHUNK, seedCity } from '../server/seed/citySeed.ts';
import { seedDemoIfEmpty } from '../server/seed/demoSeed.ts';

const devices = numberArgument('--devices', 1_000_000);
const chunkSize = numberArgument('--chunk', DEFAULT_CHUNK);
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
const say = (line: string) => console.error(`[seed:city ${seconds()} s] ${line}`);
/** Once the database is open, a failure is the seed's own (told as it is), not one of opening it. */
let opened = false;

async function main() {
  if (!Number.isInteger(devices) || devices < 1 || devices > 10_000_000) throw new ConfigError('--devices must be a whole number from 1 to 10000000.');
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new ConfigError('--chunk must be a whole number of at least 1.');
  const location = databaseLocationFrom(process.env);
  if (!location.databaseUrl && isMemoryDir(location.dataDir)) throw new ConfigError('DATA_DIR=memory:// keeps nothing: seed a data directory or DATABASE_URL.');
  // the embedded database admits one process: the server's lock tells when it runs
  const releaseLock = location.databaseUrl ? () => {} : lockDataDir(location.dataDir);
  let db: Database | undefined;
  try {
    say(`opening ${location.databaseUrl ? 'PostgreSQL at DATABASE_URL' : `the embedded database in ${location.dataDir}`}…`);
    db = await openDatabase({ ...location, statementTimeoutMs: statementTimeoutFrom(process.env.STATEMENT_TIMEOUT_MS) });
    opened = true;
    if (seedFrom(process.env) === 'demo' && (await seedDemoIfEmpty(db))) say('the database was empty: seeded the demo tenants, as a first start does.');
    say(`adding ${BIG_CITY.name} with ${devices.toLocaleString('en')} devices…`);
    const result = await seedCity(db, { devices, chunkSize, progress: (written, total) => say(`${written.toLocaleString('en')} of ${total.toLocaleString('en')} devices`) });
    const shares = `${CITY_SHARES.alarm} % with an open alarm (${result.alarms.toLocaleString('en')}), ${CITY_SHARES.offline} % not connected, ${CITY_SHARES.maintenance} % under maintenance`;
    console.log(`Added ${BIG_CITY.name}: ${devices.toLocaleString('en')} devices, ${shares}, in ${seconds()} s. Sign in as ${BIG_CITY.users[0].email} / demo1234.`);
  } finally {
    await db?.close().catch(() => {});
    releaseLock();
  }
}

main().catch((error: unknown) => {
  const sentence = opened || error instanceof CityExistsError ? (error as Error).message : startupFailureSentence(error, databaseLocationFrom(process.env));
  console.error(`seed:city failed after ${seconds()} s: ${sentence}`);
  if (process.env.LOG_LEVEL === 'debug') console.error(error);
  process.exit(1);
});
