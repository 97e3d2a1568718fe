// Starts Terrasight: reads the configuration, opens and seeds the database, serves HTTP.
import { buildApp } from './app.ts';
import { ConfigError, isMemoryDir, loadConfig } from './config.ts';
import { DataDirLockedError, lockDataDir } from './db/dataDirLock.ts';
import { openDatabase } from './db/database.ts';
import { seedDemoIfEmpty } from './seed/demoSeed.ts';

async function main() {
  const config = loadConfig();
  const embedded = !config.databaseUrl;
  const releaseLock = embedded && !isMemoryDir(config.dataDir) ? lockDataDir(config.dataDir) : () => {};
  let db;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    releaseLock();
    throw error;
  }
  if (config.seed === 'demo' && (await seedDemoIfEmpty(db))) console.log('Seeded the demo tenants (sign in as admin@demo.city / demo1234).');

  const app = await buildApp({ db, jwtSecret: config.jwtSecret, webDir: config.webDir, trustProxy: config.trustProxy, logger: { level: process.env.LOG_LEVEL ?? 'warn' } });
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
  console.log(`Terrasight is running at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (${where}).`);
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`Terrasight cannot start: ${error.message}`);
  } else {
    console.error('Terrasight failed to start:', error);
  }
  process.exit(1);
});
