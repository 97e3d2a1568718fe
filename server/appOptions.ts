// What the app is built from (buildApp): its database and secrets, and every setting the
// configuration (server/config.ts) or a test may give.
import type { FastifyServerOptions } from 'fastify';
import type { BaseMap } from '../src/schemas/mapConfig.ts';
import type { ThrottleLimits } from './auth/loginThrottle.ts';
import type { RateLimit } from './auth/tokenRateLimit.ts';
import type { TrustProxy } from './config.ts';
import type { Database } from './db/database.ts';
import type { DiskGuard } from './db/diskGuard.ts';
import type { IngestLimits } from './ingest/deviceIngest.ts';
import type { TransportLimits } from './ingest/mqttListener.ts';
import type { WriterLimits } from './telemetry/telemetryWriter.ts';
import type { TracingConfig } from './tracing.ts';

export interface AppOptions {
  db: Database;
  jwtSecret: string;
  /** Built web app to serve; skipped when the directory does not exist. */
  webDir?: string;
  logger?: FastifyServerOptions['logger'];
  throttle?: ThrottleLimits;
  /** Fastify's trustProxy: false (default), a hop count or addresses (TRUST_PROXY). */
  trustProxy?: TrustProxy;
  /** Serve HTTPS with this certificate and key (TLS_CERT, TLS_KEY). */
  https?: { cert: Buffer; key: Buffer };
  /** The base map the web app draws (MAP_STYLE); the offline one by default. */
  baseMap?: BaseMap;
  /** Further origins the base map's style loads from (MAP_TILE_HOSTS); none by default. */
  mapTileHosts?: string[];
  /** Send HSTS (TLS configured). */
  hsts?: boolean;
  /** The embedded database's free-space check (none for PostgreSQL, which reports a full disk itself). */
  diskGuard?: DiskGuard;
  /** Limits of the telemetry writer, the device ingestion and the MQTT device transport (tests make them small). */
  writerLimits?: Partial<WriterLimits>;
  ingestLimits?: Partial<IngestLimits>;
  mqttLimits?: Partial<TransportLimits>;
  /** Time zones whose local days are kept as a roll-up (TELEMETRY_DAY_ZONES); none by default. */
  telemetryDayZones?: string[];
  /** The mail server of notification e-mails (SMTP_URL, SMTP_FROM); none: e-mail is off. */
  smtp?: { url: string; from: string };
  /** Where request traces are exported, and their share (OTEL_EXPORTER_OTLP_ENDPOINT); none: not traced. */
  tracing?: TracingConfig;
  /** Whether the engines that act on their own run (watchers, schedulers, notifications); default yes. */
  engines?: boolean;
  /** How often the engines look for due work (ms; watchers: 5 s). */
  enginesEveryMs?: number;
  /** The lighting engine's clock, also where an ended override is decided (tests); Date.now by default. */
  lightingNow?: () => number;
  /** The clock of KPI answers: their ranges, and how long answers and closed buckets are kept (tests and benchmarks move it); Date.now by default. */
  kpiAnswersNow?: () => number;
  /** TELEMETRY_RETENTION_DAYS (server/config.ts): KPI answers never reuse buckets of data that old. */
  telemetryRetentionDays?: number;
  /** Requests an API token may make per window (600 a minute by default). */
  apiRateLimit?: RateLimit;
  /** How often this instance says it is alive, and after how long a silent one is dead (ms; 5 s and 20 s). */
  instanceHeartbeat?: { everyMs?: number; deadAfterMs?: number };
  /** What one answer may hold (characters of JSON; 16 MiB by default, tests make it small). */
  maxAnswerChars?: number;
}
