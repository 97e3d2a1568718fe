// Starts Terrasight: reads the configuration, opens and seeds the database, serves HTTP.
import { buildApp } from './app.ts';
import { resolve } from 'node:path';
import { isMemoryDir, loadConfig } from './config.ts';
import { lockDataDir } from './db/dataDirLock.ts';
import { diskGuard } from './db/diskGuard.ts';
import { openDatabase, type Database } from './db/database.ts';
import { seedDemoIfEmpty } from './seed/demoSeed.ts';
import { startupFailureSentence } from './startupErrors.ts';

async function main() {
  const config = loadConfig();
  const embedded = !config.databaseUrl;
  const releaseLock = embedded && !isMemoryDir(config.dataDir) ? lockDataDir(config.dataDir) : () => {};
  let db: Database | undefined;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    if (config.seed === 'demo' && (await seedDemoIfEmpty(db))) console.log('Seeded the demo tenants (sign in as admin@demo.city / demo1234).');
  } catch (error) {
    await db?.close().catch(() => {});
    releaseLock();
    throw error;
  }

  const app = await buildApp({ db, jwtSecret: config.jwtSecret, webDir: config.webDir, trustProxy: config.trustProxy,
    https: config.tls, mapTileHosts: config.mapTileHosts, hsts: config.hsts,
    diskGuard: embedded && !isMemoryDir(config.dataDir) ? diskGuard(config.dataDir) : undefined, logger: { level: process.env.LOG_LEVEL ?? 'warn' } });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: closing Terrasight…`);
    try {
      await app.close();
      await db.close();
    } finally {
      releaseLock();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = embedded ? `embedded database in ${config.dataDir}` : 'PostgreSQL at DATABASE_URL';
  console.log(`Terrasight is running at ${config.tls ? 'https' : 'http'}://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (${where}).`);
}

main().catch((error) => {
  // Read from the environment again: the failure may have happened while reading the configuration.
  const where = { dataDir: isMemoryDir(process.env.DATA_DIR ?? '') ? 'memory://' : resolve(process.env.DATA_DIR || './data'), databaseUrl: process.env.DATABASE_URL || undefined };
  console.error(`Terrasight cannot start: ${startupFailureSentence(error, where)}`);
  if (process.env.LOG_LEVEL === 'debug') console.error(error);
  process.exit(1);
});
