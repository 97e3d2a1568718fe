// Boots the real app on a real, freshly seeded database: embedded PGlite by default, or a new
// database on the PostgreSQL server at TEST_DATABASE_URL (the PostgreSQL leg of `npm test`). Each
// is a copy of the demo database that the global setup migrated and seeded once
// (tests/support/databaseTemplate.ts), with a day of demo history written through the app.
import type { FastifyInstance } from 'fastify';
import { inject, type TestContext } from 'vitest';
import { buildApp, type AppOptions } from '../../server/app.ts';
import type { ThrottleLimits } from '../../server/auth/loginThrottle.ts';
import { DEFAULT_DAY_ZONES, type TrustProxy } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import type { IngestLimits } from '../../server/ingest/deviceIngest.ts';
import type { WriterLimits } from '../../server/telemetry/telemetryWriter.ts';
import type { BaseMap } from '../../src/schemas/mapConfig.ts';
import { backfillDemoTelemetry } from '../../server/seed/demoDevices.ts';
import { copyOfTemplate, createDatabase } from '../support/databaseTemplate.ts';

export const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
export const PASSWORD = 'demo1234';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  /** The PostgreSQL database's address (on PostgreSQL only), for a server process on the same data. */
  databaseUrl?: string;
  /** Signs in and returns both tokens. */
  login(email: string, password?: string): Promise<{ access_token: string; refresh_token: string }>;
  /** GET with a bearer token; returns status and parsed body. */
  get(path: string, token: string): Promise<{ status: number; body: any }>;
  post(path: string, body: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** Any request: from another client address, with extra headers, a raw payload. */
  send(request: { method?: 'GET' | 'POST'; path: string; body?: unknown; token?: string; headers?: Record<string, string>; remoteAddress?: string }):
    Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** A new, empty database on the PostgreSQL server at `serverUrl` (for tests that migrate it themselves). */
export const freshPostgresDatabase = (serverUrl: string) => createDatabase(serverUrl, 'terrasight_test');

/** A copy of the run's demo database (its global setup built it), without history. */
export const demoDatabase = (statementTimeoutMs?: number) =>
  copyOfTemplate(inject('databaseTemplate'), process.env.TEST_DATABASE_URL, statementTimeoutMs);

export const usingPostgres = () => !!process.env.TEST_DATABASE_URL;

/**
 * For a `beforeEach` (or a test's first line): skips, saying why, where the API tests run on the
 * embedded database, which serves one process and one transaction at a time.
 */
export const skipUnlessPostgres = (why: string) => ({ skip }: TestContext) => skip(!usingPostgres(), `needs PostgreSQL: ${why}`);

export interface TestAppOptions {
  writerLimits?: Partial<WriterLimits>; ingestLimits?: Partial<IngestLimits>; mqttLimits?: AppOptions['mqttLimits']; throttle?: ThrottleLimits; webDir?: string; trustProxy?: TrustProxy; db?: Database; hsts?: boolean;
  baseMap?: BaseMap; mapTileHosts?: string[]; telemetryDayZones?: string[]; logger?: AppOptions['logger']; statementTimeoutMs?: number;
  instanceHeartbeat?: AppOptions['instanceHeartbeat'];
  /** The engines (watchers…) run only in the tests that ask for them: the others' seeded state stays as seeded. */
  engines?: boolean; enginesEveryMs?: number; lightingNow?: AppOptions['lightingNow']; kpiAnswersNow?: AppOptions['kpiAnswersNow']; smtp?: AppOptions['smtp'];
  telemetryRetentionDays?: number;
  /** Requests an API token may make per window. */
  apiRateLimit?: AppOptions['apiRateLimit'];
  tracing?: AppOptions['tracing'];
  maxAnswerChars?: number;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // A second app on another app's database shares its data (and is not the one to drop it).
  const copy = options.db ? undefined : await demoDatabase(options.statementTimeoutMs);
  const db = options.db ?? copy!.db;
  const app = await buildApp({ db, jwtSecret: JWT_SECRET, telemetryDayZones: DEFAULT_DAY_ZONES, ...options, engines: options.engines ?? false });
  await app.ready();
  // A day of demo history (the server writes 30 on first start), through the real writer; not
  // under a small statement limit (those tests need none, and a busy machine may take longer than
  // the limit over a batch of it).
  if (copy && options.statementTimeoutMs === undefined) await backfillDemoTelemetry(db, app.ingestion.writer, { days: 1 });

  const send: TestApp['send'] = async ({ method = 'GET', path, body: payload, token, headers = {}, remoteAddress }) => {
    const response = await app.inject({
      method, url: path, payload: payload as never, remoteAddress,
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    let body: unknown = response.body;
    try {
      body = response.json();
    } catch { /* not JSON */ }
    return { status: response.statusCode, body: body as any, headers: response.headers };
  };
  const request = (method: 'GET' | 'POST', path: string, token?: string, body?: unknown) => send({ method, path, token, body });

  return {
    app,
    db,
    databaseUrl: copy?.url,
    async login(email, password = PASSWORD) {
      const { status, body } = await request('POST', '/auth/login', undefined, { email, password });
      if (status !== 200) throw new Error(`login ${email} failed: ${status} ${JSON.stringify(body)}`);
      return body;
    },
    get: (path, token) => request('GET', path, token),
    post: (path, body, token) => request('POST', path, token, body),
    send,
    async close() {
      await app.close();
      await copy?.drop();
    },
  };
}
