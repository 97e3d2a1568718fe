// Reads the configuration from the environment (README: "Configuration").
import { DEFAULT_TRACE_SAMPLE_RATE, tracesEndpointFrom, type TracingConfig } from './tracing.ts';
import { DEFAULT_MQTT_MAX_CONNECTIONS } from './deviceCapacity.ts';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BaseMap } from '../src/schemas/mapConfig.ts';
import { DEFAULT_POOL_SIZE, DEFAULT_STATEMENT_TIMEOUT_MS, LONG_STATEMENT_TIMEOUT_MS, MAX_POOL_SIZE } from './db/database.ts';
import { BACKFILL_DAYS } from './seed/demoData.ts';
import { dayZonesProblem } from './telemetry/dayZones.ts';
import { canonicalZone } from './time/kpiTime.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  mqttPort: number;
  jwtSecret: string;
  seed: 'demo' | 'none';
  /** DEMO_HISTORY_DAYS: the days of telemetry history the demo seed writes at the first start. */
  demoHistoryDays: number;
  simulate: boolean;
  /** TELEMETRY_RETENTION_DAYS: whole months of telemetry older than this are dropped; undefined keeps everything. */
  telemetryRetentionDays?: number;
  /** TELEMETRY_DAY_ZONES: time zones whose local days are kept as a roll-up (server/telemetry/dayZones.ts). */
  telemetryDayZones: string[];
  /** Directory of the built web app, served with a history fallback. */
  webDir: string;
  trustProxy: TrustProxy;
  /** MAP_STYLE: the base map the web app draws. */
  baseMap: BaseMap;
  /** MAP_TILE_HOSTS: further origins the base map's style loads from (the CSP allows them too). */
  mapTileHosts: string[];
  /** Certificate and key (PEM) when the server itself speaks HTTPS. */
  tls?: { cert: Buffer; key: Buffer };
  /** Send Strict-Transport-Security: with TLS here, or HSTS=on behind a TLS proxy. */
  hsts: boolean;
  /** STATEMENT_TIMEOUT_MS: what one statement of a request may take. */
  statementTimeoutMs: number;
  /** DATABASE_POOL_SIZE: PostgreSQL connections of the pool (the listener takes one more). */
  poolSize: number;
  /** SHUTDOWN_DRAIN_MS: how long a stopping instance reads as not ready, still serving, before it closes. */
  shutdownDrainMs: number;
  /** MQTT_MAX_CONNECTIONS: devices connected over TCP at once, at most (more are refused). */
  mqttMaxConnections: number;
  /** SMTP_URL and SMTP_FROM: where notification e-mails are sent through, and their sender; undefined: e-mail is off. */
  smtp?: SmtpConfig;
  /** OTEL_EXPORTER_OTLP_ENDPOINT (or …_TRACES_ENDPOINT) and OTEL_TRACES_SAMPLER_ARG: where request traces go, and their share; undefined: no traces. */
  tracing?: TracingConfig;
}

export interface SmtpConfig {
  /** smtp:// or smtps://, credentials included: never logged or repeated in an error. */
  url: string;
  /** The sender, `alerts@example.com` or `Terrasight <alerts@example.com>`. */
  from: string;
}

export class ConfigError extends Error {}

/** Which proxies may set X-Forwarded-For: none, the nearest N hops, or these addresses/subnets. */
export type TrustProxy = false | number | string[];

const PROXY_ADDRESS = /^[0-9a-f.:]+(\/\d{1,3})?$/i;

export function trustProxyFrom(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'off' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const addresses = value.split(',').map((part) => part.trim()).filter(Boolean);
  const bad = addresses.find((address) => !PROXY_ADDRESS.test(address));
  if (bad !== undefined) {
    throw new ConfigError(`TRUST_PROXY must be off, a hop count or a comma-separated list of proxy addresses (e.g. 10.0.0.1,192.168.0.0/16), got "${bad}".`);
  }
  return addresses;
}

/** Example or placeholder values that must never sign production tokens. */
const KNOWN_SECRETS = new Set(['secret', 'changeme', 'change-me', 'jwt_secret', 'your-secret', 'terrasight', 'development']);
const MIN_SECRET_LENGTH = 32;

export const isMemoryDir = (dataDir: string) => dataDir === 'memory://';

function jwtSecret(env: NodeJS.ProcessEnv, dataDir: string, databaseUrl?: string): string {
  const given = env.JWT_SECRET;
  if (given !== undefined || databaseUrl) {
    if (!given) throw new ConfigError('JWT_SECRET is required when DATABASE_URL is set.');
    if (given.length < MIN_SECRET_LENGTH || KNOWN_SECRETS.has(given.toLowerCase())) {
      throw new ConfigError(`JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters and not a known example value.`);
    }
    return given;
  }
  if (isMemoryDir(dataDir)) return randomBytes(32).toString('base64url');
  // The embedded default generates its key once and keeps it beside the data.
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new ConfigError(`${name} must be a port number, got "${raw}".`);
  return value;
}

/** A whole number from `min` to `max` in the variable `name`; `fallback` when unset. */
function boundedFrom(name: string, raw: string | undefined, bounds: { min: number; max: number; fallback: number; unit: string }): number {
  const value = (raw ?? '').trim();
  if (value === '') return bounds.fallback;
  if (!/^\d+$/.test(value) || Number(value) < bounds.min || Number(value) > bounds.max) {
    throw new ConfigError(`${name} must be a number of ${bounds.unit} from ${bounds.min} to ${bounds.max}, got "${value.slice(0, 40)}".`);
  }
  return Number(value);
}

/** STATEMENT_TIMEOUT_MS: 100 ms to 10 minutes. */
export const statementTimeoutFrom = (raw: string | undefined): number =>
  boundedFrom('STATEMENT_TIMEOUT_MS', raw, { min: 100, max: LONG_STATEMENT_TIMEOUT_MS, fallback: DEFAULT_STATEMENT_TIMEOUT_MS, unit: 'milliseconds' });

/** DATABASE_POOL_SIZE: 1 to MAX_POOL_SIZE connections (docs/operations.md "Connections"). */
export const poolSizeFrom = (raw: string | undefined): number =>
  boundedFrom('DATABASE_POOL_SIZE', raw, { min: 1, max: MAX_POOL_SIZE, fallback: DEFAULT_POOL_SIZE, unit: 'connections' });

/**
 * SHUTDOWN_DRAIN_MS: 0 (default) to MAX_SHUTDOWN_DRAIN_MS. Behind a balancer, longer than its health
 * check takes to find an instance down, so that no new request reaches it once it closes.
 */
export const MAX_SHUTDOWN_DRAIN_MS = 5_000;
export const shutdownDrainFrom = (raw: string | undefined): number =>
  boundedFrom('SHUTDOWN_DRAIN_MS', raw, { min: 0, max: MAX_SHUTDOWN_DRAIN_MS, fallback: 0, unit: 'milliseconds' });

/** MQTT_MAX_CONNECTIONS: 1 to 1,000,000 devices connected at once over TCP (docs/operations.md "Devices connected at once"). */
export const mqttMaxConnectionsFrom = (raw: string | undefined): number =>
  boundedFrom('MQTT_MAX_CONNECTIONS', raw, { min: 1, max: 1_000_000, fallback: DEFAULT_MQTT_MAX_CONNECTIONS, unit: 'connections' });

/** DEMO_HISTORY_DAYS: 0 to MAX_DEMO_HISTORY_DAYS days of demo history, BACKFILL_DAYS unless set. */
export const MAX_DEMO_HISTORY_DAYS = 366;
export const demoHistoryDaysFrom = (raw: string | undefined): number =>
  boundedFrom('DEMO_HISTORY_DAYS', raw, { min: 0, max: MAX_DEMO_HISTORY_DAYS, fallback: BACKFILL_DAYS, unit: 'days' });

export function retentionDaysFrom(raw: string | undefined): number | undefined {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'keep') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 36_500) {
    throw new ConfigError(`TELEMETRY_RETENTION_DAYS must be a number of days from 1 to 36500 (or "keep"), got "${value}".`);
  }
  return Number(value);
}

/** The demo's region (Bratislava) keeps its local days by default. */
export const DEFAULT_DAY_ZONES = ['Europe/Bratislava'];

export function dayZonesFrom(raw: string | undefined): string[] {
  if (raw === undefined) return DEFAULT_DAY_ZONES;
  const value = raw.trim();
  if (value === '' || value === 'none') return [];
  const names = value.split(',').map((part) => part.trim()).filter(Boolean);
  const problem = dayZonesProblem(names);
  if (problem) throw new ConfigError(`TELEMETRY_DAY_ZONES ${problem}, got "${value.slice(0, 200)}".`);
  return [...new Set(names.map(canonicalZone))];
}

/** An http(s) URL without credentials, or undefined. */
function webUrl(text: string): URL | undefined {
  if (/\s/.test(text)) return undefined;
  try {
    const url = new URL(text);
    return /^https?:$/.test(url.protocol) && !url.username && !url.password ? url : undefined;
  } catch {
    return undefined;
  }
}

/** MAP_TILE_HOSTS: extra origins a custom base map's style refers to (tiles, glyphs, sprites elsewhere). */
export function mapTileHostsFrom(raw: string | undefined): string[] {
  const hosts = (raw ?? '').split(',').map((part) => part.trim()).filter(Boolean);
  for (const host of hosts) {
    if (webUrl(host)?.origin !== host.replace(/\/$/, '')) {
      throw new ConfigError(`MAP_TILE_HOSTS must list origins such as https://tiles.example.com (scheme and host, no path), got "${host}".`);
    }
  }
  return hosts.map((host) => host.replace(/\/$/, ''));
}

const OPENFREEMAP_STYLE = 'https://tiles.openfreemap.org/styles/liberty';
const MAPTILER_STYLE = 'https://api.maptiler.com/maps/streets-v2/style.json';
const GOOGLE_TILES = 'https://tile.googleapis.com';
const BROWSER_KEY = /^[A-Za-z0-9_-]{8,256}$/;
const PMTILES_SCHEME = 'pmtiles://';

/**
 * MAP_STYLE: the base map the web app draws. The value is never repeated in an error: it may
 * hold a key.
 */
export function baseMapFrom(raw: string | undefined): BaseMap {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'openfreemap') return { kind: 'openfreemap', url: OPENFREEMAP_STYLE };
  if (value === 'offline') return { kind: 'offline' };
  const keyed = /^(maptiler|google):(.*)$/s.exec(value);
  if (keyed) {
    const [, provider, key] = keyed;
    if (!BROWSER_KEY.test(key)) throw new ConfigError(`MAP_STYLE ${provider}:<key> needs the provider's browser key (8 to 256 letters, digits, - or _).`);
    return provider === 'maptiler' ? { kind: 'maptiler', url: MAPTILER_STYLE, key } : { kind: 'google', url: GOOGLE_TILES, key };
  }
  const archive = value.startsWith(PMTILES_SCHEME);
  const url = webUrl(archive ? value.slice(PMTILES_SCHEME.length) : value);
  if (!url) {
    throw new ConfigError('MAP_STYLE must be offline, openfreemap, maptiler:<key>, google:<key>, a PMTiles archive '
      + '(pmtiles://https://host/file.pmtiles or https://host/file.pmtiles) or the https:// URL of a MapLibre style.');
  }
  return { kind: archive || url.pathname.toLowerCase().endsWith('.pmtiles') ? 'pmtiles' : 'style', url: url.href };
}

/** An address, alone or in angle brackets after a display name, on one line. */
const SENDER = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/** SMTP_URL and SMTP_FROM; e-mail is off without SMTP_URL. The URL is never repeated: it may hold a password. */
/** The traces' exporter, when one is configured: an http(s) endpoint, and the share sampled (0–1, default 0.8). */
export function tracingFrom(env: NodeJS.ProcessEnv): TracingConfig | undefined {
  const endpoint = tracesEndpointFrom(env);
  if (!endpoint) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch { /* refused below */ }
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_ENDPOINT must be the OTLP/HTTP collector's address, e.g. http://collector:4318, got "${endpoint.slice(0, 200)}".`);
  }
  const raw = (env.OTEL_TRACES_SAMPLER_ARG ?? '').trim();
  const sampleRate = raw === '' ? DEFAULT_TRACE_SAMPLE_RATE : Number(raw);
  if (!(sampleRate >= 0 && sampleRate <= 1)) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be the share of requests traced, from 0 to 1, got "${raw.slice(0, 50)}".`);
  return { endpoint, sampleRate };
}

export function smtpFrom(env: NodeJS.ProcessEnv): SmtpConfig | undefined {
  const url = (env.SMTP_URL ?? '').trim();
  if (url === '') return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch { /* refused below */ }
  if (!parsed || !['smtp:', 'smtps:'].includes(parsed.protocol) || !parsed.hostname) {
    throw new ConfigError('SMTP_URL must be smtp://[user:password@]host[:port] (STARTTLS when the server offers it) or smtps://… (TLS from the start), e.g. smtp://alerts:secret@mail.example.com:587.');
  }
  const from = (env.SMTP_FROM ?? '').trim();
  if (!SENDER.test(from)) {
    throw new ConfigError(`SMTP_FROM must be the sender of notification e-mails, e.g. "Terrasight <alerts@example.com>"${from ? `, got "${from.slice(0, 200)}"` : ' (required with SMTP_URL)'}.`);
  }
  return { url, from };
}

function tlsFrom(env: NodeJS.ProcessEnv): Config['tls'] {
  const { TLS_CERT: certPath, TLS_KEY: keyPath } = env;
  if (!certPath && !keyPath) return undefined;
  if (!certPath || !keyPath) throw new ConfigError('TLS_CERT and TLS_KEY must be set together (paths to the PEM certificate and key).');
  const read = (name: string, path: string) => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new ConfigError(`${name} ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
    }
  };
  return { cert: read('TLS_CERT', certPath), key: read('TLS_KEY', keyPath) };
}

/** Where the data lives: the embedded database's DATA_DIR (default ./data), or DATABASE_URL's PostgreSQL when set. */
export function databaseLocationFrom(env: NodeJS.ProcessEnv): Pick<Config, 'dataDir' | 'databaseUrl'> {
  const rawDir = env.DATA_DIR || './data';
  return { dataDir: isMemoryDir(rawDir) ? rawDir : resolve(rawDir), databaseUrl: env.DATABASE_URL || undefined };
}

/** SEED: what an empty database is seeded with. */
export function seedFrom(env: NodeJS.ProcessEnv): Config['seed'] {
  const seed = (env.SEED || 'demo') as Config['seed'];
  if (seed !== 'demo' && seed !== 'none') throw new ConfigError(`SEED must be "demo" or "none", got "${seed}".`);
  return seed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { dataDir, databaseUrl } = databaseLocationFrom(env);
  const seed = seedFrom(env);
  const simulate = (env.SIMULATE || (seed === 'demo' ? 'on' : 'off')) === 'on';
  const tls = tlsFrom(env);
  return {
    port: intFrom(env, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl,
    mqttPort: intFrom(env, 'MQTT_PORT', 1883),
    jwtSecret: jwtSecret(env, dataDir, databaseUrl),
    seed,
    demoHistoryDays: demoHistoryDaysFrom(env.DEMO_HISTORY_DAYS),
    simulate,
    telemetryRetentionDays: retentionDaysFrom(env.TELEMETRY_RETENTION_DAYS),
    telemetryDayZones: dayZonesFrom(env.TELEMETRY_DAY_ZONES),
    webDir: resolve(env.WEB_DIR || 'dist'),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    baseMap: baseMapFrom(env.MAP_STYLE),
    mapTileHosts: mapTileHostsFrom(env.MAP_TILE_HOSTS),
    tls,
    hsts: !!tls || env.HSTS === 'on',
    statementTimeoutMs: statementTimeoutFrom(env.STATEMENT_TIMEOUT_MS),
    poolSize: poolSizeFrom(env.DATABASE_POOL_SIZE),
    shutdownDrainMs: shutdownDrainFrom(env.SHUTDOWN_DRAIN_MS),
    mqttMaxConnections: mqttMaxConnectionsFrom(env.MQTT_MAX_CONNECTIONS),
    smtp: smtpFrom(env),
    tracing: tracingFrom(env),
  };
}
