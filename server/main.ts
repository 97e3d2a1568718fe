// Starts Terrasight: reads the configuration, opens and seeds the database, serves HTTP.
import { buildApp } from './app.ts';
import { resolve } from 'node:path';
import { isMemoryDir, loadConfig } from './config.ts';
import { lockDataDir } from './db/dataDirLock.ts';
import { diskGuard } from './db/diskGuard.ts';
import { openDatabase, type Database } from './db/database.ts';
import { startMqttListener, type MqttListener } from './ingest/mqttListener.ts';
import { backfillDemoTelemetry, startDemoSimulation, type DemoSimulation } from './seed/demoDevices.ts';
import { seedDemoIfEmpty } from './seed/demoSeed.ts';
import { scheduleTelemetryMaintenance } from './engines/telemetryMaintenance.ts';
import { demoLamp } from './db/deviceQueries.ts';
import { checkModelStorage } from './resources/modelStorage.ts';
import { startupFailureSentence } from './startupErrors.ts';
import { smtpServerName } from './engines/notifications/smtpMailer.ts';
import { logsFailure } from './logsFailure.ts';
import { getHeapStatistics } from 'node:v8';
import { deviceConnectionLimit, openFileLimit, ownLimits } from './deviceCapacity.ts';

/** The longest a shutdown may take (SIGTERM): a process manager's patience is usually 10 s. */
const SHUTDOWN_DEADLINE_MS = 9_000;

async function main() {
  const config = loadConfig();
  const embedded = !config.databaseUrl;
  const releaseLock = embedded && !isMemoryDir(config.dataDir) ? lockDataDir(config.dataDir) : () => {};
  let db: Database | undefined;
  let seeded = false;
  try {
    db = await openDatabase({
      databaseUrl: config.databaseUrl, dataDir: config.dataDir, statementTimeoutMs: config.statementTimeoutMs, poolSize: config.poolSize,
      onEmbeddedTimeout: (restarted) => console.warn(`A statement ran longer than STATEMENT_TIMEOUT_MS (${config.statementTimeoutMs} ms) and was cut off${restarted ? '; the embedded database was reopened' : ''}.`),
    });
    await checkModelStorage(db);
    seeded = config.seed === 'demo' && (await seedDemoIfEmpty(db));
    if (seeded) console.log('Seeded the demo tenants (sign in as admin@demo.city / demo1234).');
  } catch (error) {
    await db?.close().catch(() => {});
    releaseLock();
    throw error;
  }

  const app = await buildApp({ db, jwtSecret: config.jwtSecret, webDir: config.webDir, trustProxy: config.trustProxy,
    https: config.tls, baseMap: config.baseMap, mapTileHosts: config.mapTileHosts, hsts: config.hsts, telemetryDayZones: config.telemetryDayZones,
    diskGuard: embedded && !isMemoryDir(config.dataDir) ? diskGuard(config.dataDir) : undefined, logger: { level: process.env.LOG_LEVEL ?? 'warn' },
    smtp: config.smtp, tracing: config.tracing, telemetryRetentionDays: config.telemetryRetentionDays });
  let closing = false;
  let mqttListener: MqttListener | undefined;
  let simulation: DemoSimulation | undefined;
  const stopMaintenance = scheduleTelemetryMaintenance(db, config.telemetryRetentionDays, logsFailure(app.log, 'telemetry maintenance failed'));
  const stopNow = (why: string) => {
    console.error(`${why}: stopping now. Every acknowledged write is already in the database.`);
    releaseLock();
    process.exit(1);
  };
  // The instance drains first (SHUTDOWN_DRAIN_MS: it reads as not ready and still serves, while a
  // balancer turns its new work elsewhere); then new work is refused (devices, requests); what was
  // accepted is written; then the database closes. Whatever holds that up, the process ends within
  // SHUTDOWN_DEADLINE_MS, or at a second signal.
  const shutdown = async (signal: string) => {
    if (closing) return stopNow(`${signal} again`);
    closing = true;
    console.log(`${signal}: closing Terrasight…`);
    setTimeout(() => stopNow(`Terrasight did not close within ${SHUTDOWN_DEADLINE_MS / 1000} s`), SHUTDOWN_DEADLINE_MS).unref();
    try {
      stopMaintenance();
      if (config.shutdownDrainMs > 0) {
        app.drain();
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      }
      const listenerClosed = mqttListener?.close(); // no new devices; the broker below ends the connections
      await simulation?.stop();
      await app.close(); // HTTP and sockets, then the broker, then the telemetry writer's queue
      await listenerClosed;
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
  if (config.mqttPort > 0) {
    const devices = deviceConnectionLimit(config.mqttMaxConnections, { fileLimit: openFileLimit(ownLimits()), heapLimitBytes: getHeapStatistics().heap_size_limit });
    if (devices.warning) console.warn(devices.warning);
    mqttListener = await startMqttListener(app.ingestion.broker, { port: config.mqttPort, host: config.host, maxConnections: devices.limit });
    console.log(`Devices connect over MQTT to ${config.host}:${mqttListener.port} (the access token is the user name).`);
  }
  if (seeded) {
    const [lamp] = await demoLamp(db);
    if (lamp && mqttListener) console.log(`Send a point as the demo street lamp "${lamp.name}": mosquitto_pub -h ${config.host} -p ${mqttListener.port} -u ${lamp.token} -q 1 -t v1/devices/me/telemetry -m '{"power": 42.5}'`);
    // In the background: the web app and API serve while the history is written.
    backfillDemoTelemetry(db, app.ingestion.writer, { days: config.demoHistoryDays })
      .then((points) => console.log(`Wrote ${points.toLocaleString('en')} points of demo history.`))
      .catch(logsFailure(app.log, 'demo history could not be written'));
  }
  if (config.simulate) {
    if (mqttListener) simulation = await startDemoSimulation(db, `mqtt://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${mqttListener.port}`);
    else console.log('SIMULATE=on needs the MQTT listener (MQTT_PORT=0 turns it off): the demo devices stay quiet.');
  }
  console.log(config.smtp
    ? `Notification e-mails are sent through ${smtpServerName(config.smtp.url)} from ${config.smtp.from}.`
    : 'Notification e-mails are off: set SMTP_URL and SMTP_FROM to send them.');
  if (config.tracing) console.log(`Request traces (a share of ${config.tracing.sampleRate}) are exported to ${new URL(config.tracing.endpoint).host}.`);
  console.log(`Terrasight is running at ${config.tls ? 'https' : 'http'}://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (${where}).`);
}

main().catch((error) => {
  // Read from the environment again: the failure may have happened while reading the configuration.
  const where = { dataDir: isMemoryDir(process.env.DATA_DIR ?? '') ? 'memory://' : resolve(process.env.DATA_DIR || './data'), databaseUrl: process.env.DATABASE_URL || undefined };
  console.error(`Terrasight cannot start: ${startupFailureSentence(error, where)}`);
  if (process.env.LOG_LEVEL === 'debug') console.error(error);
  process.exit(1);
});
