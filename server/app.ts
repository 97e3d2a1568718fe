// Builds the Fastify app: REST API, GraphQL (HTTP + WebSocket), OpenAPI document and the
// web app with its history fallback. Testable without a port (app.inject).
import { sql } from 'drizzle-orm';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import mercurius, { type IResolvers, type PubSub } from 'mercurius';
import { randomUUID } from 'node:crypto';
import { AJV_PLUGINS } from '../src/schemas/ajvInstance.ts';
import { AJV_OPTIONS } from '../src/schemas/validation.ts';
import { apiUserRoutes } from './api/apiUserRoutes.ts';
import { authRoutes } from './api/authRoutes.ts';
import { bearerToken, callerOf } from './api/authenticate.ts';
import { installErrorHandling, sendUnavailable } from './api/httpErrors.ts';
import { installJsonBodyParser } from './api/jsonBodyParser.ts';
import { onWebSocketError } from './api/websocketErrors.ts';
import { kpiDataRoutes } from './api/kpiDataRoutes.ts';
import { overlayImageRoutes } from './api/overlayImageRoutes.ts';
import { boardMediaRoutes } from './api/boardMediaRoutes.ts';
import { healthRoutes, readinessProbe } from './api/healthRoutes.ts';
import { clientErrorRoutes } from './api/clientErrorRoutes.ts';
import { traceRequests, type TracingConfig } from './tracing.ts';
import { frameOriginsRoutes } from './api/frameOriginsRoutes.ts';
import { profileRoutes } from './api/profileRoutes.ts';
import { mayOpenSubscriptions, refuseOutsidePublicApi } from './api/publicApiDoors.ts';
import { publicAuthRoutes } from './api/publicAuthRoutes.ts';
import { readRoutes } from './api/readRoutes.ts';
import { schedulerQueryTestRoutes } from './api/schedulerQueryTestRoutes.ts';
import { installSecurityHeaders } from './api/securityHeaders.ts';
import { installCompression, serveWebApp } from './api/webApp.ts';
import { boundAnswerBytes } from './api/answerBytes.ts';
import { tokenSigner } from './auth/accessToken.ts';
import { loginThrottle, type ThrottleLimits } from './auth/loginThrottle.ts';
import type { RateLimit } from './auth/tokenRateLimit.ts';
import { authStore } from './db/authStore.ts';
import { throttleStore } from './db/throttleStore.ts';
import { mapOrigins, type TrustProxy } from './config.ts';
import type { BaseMap } from '../src/schemas/mapConfig.ts';
import { CHANNELS, type Database, type Tx } from './db/database.ts';
import { ApiError, MAX_ANSWER_CHARS } from './errors.ts';
import type { DiskGuard } from './db/diskGuard.ts';
import { graphqlErrorFormatter } from './graphql/errorFormatter.ts';
import { checkGraphqlRequest, refuseUnparsedDocument } from './graphql/graphqlRequest.ts';
import { socketSessions } from './graphql/socketSessions.ts';
import { webAppBuildEvent, webAppBuildResolvers, webAppBuildTypeDefs } from './graphql/webAppBuildGraphql.ts';
import { WEB_APP_BUILD_TOPIC, watchWebAppBuild } from './live/webAppBuild.ts';
import { guardGraphqlSocket, type GraphqlSockets } from './graphql/socketGuard.ts';
import { apiUserResolvers, apiUserTypeDefs } from './graphql/apiUserGraphql.ts';
import { refuseNonPublicGraphql } from './graphql/publicApiGate.ts';
import { GRAPHQL_LIMITS, graphqlParseOptions, graphqlValidationRules } from './graphql/limits.ts';
import { resolvers, type GraphqlContext } from './graphql/resolvers.ts';
import { typeDefs } from './graphql/schema.ts';
import { deviceIngest, type DeviceIngest, type IngestLimits } from './ingest/deviceIngest.ts';
import { httpIngestRoutes } from './ingest/httpIngestRoutes.ts';
import { createMqttBroker, type MqttBroker, type TransportLimits } from './ingest/mqttListener.ts';
import fastifyWebsocket from '@fastify/websocket';
import { createWebSocketStream } from 'ws';
import { ingestProblems, type IngestProblems } from './ingest/ingestProblems.ts';
import { startClusterBus } from './live/clusterBus.ts';
import { startInstanceHeartbeat } from './engines/instances/instanceHeartbeat.ts';
import { liveEvents, type LiveBus, type LiveEvents } from './live/liveEvents.ts';
import { entityUpdateOf } from './live/resourceEvents.ts';
import { telemetryWriter, type LatestChange, type TelemetryWriter, type WriterLimits } from './telemetry/telemetryWriter.ts';
import { NOTIFICATIONS_OFF, startNotificationDelivery } from './engines/notifications/notificationDelivery.ts';
import { inAppRecipients } from './engines/notifications/queueDeliveries.ts';
import { startSchedulerEngine } from './engines/schedulers/schedulerEngine.ts';
import { startWatcherEngine } from './engines/watchers/watcherEngine.ts';
import { startMaintenanceEngine } from './engines/maintenance/maintenanceEngine.ts';
import { graphqlReadOnlyHook, refuseRestWritesWhileReadOnly } from './api/readOnlyMaintenance.ts';
import { maintenanceGuard } from './services/maintenanceGuard.ts';
import { startLightingEngine } from './engines/lighting/lightingEngine.ts';
import { lightingResolvers, lightingTypeDefs } from './graphql/lightingGraphql.ts';
import { httpDownlinkRoutes } from './ingest/httpDownlinkRoutes.ts';
import { deviceAttributeService, type DeviceAttributeService } from './services/deviceAttributes.ts';
import { deviceCommands, type DeviceCommands } from './services/deviceCommands.ts';
import { deviceRequests } from './services/deviceRequests.ts';
import { lightingService } from './services/lightingService.ts';
import { startWorkLoop } from './workLoop.ts';
import { apiTokenService } from './services/apiTokenService.ts';
import { apiUserService } from './services/apiUserService.ts';
import { authService } from './services/authService.ts';
import { bearerAuthentication } from './services/bearerAuthentication.ts';
import { passwordService } from './services/passwordService.ts';
import { tenantReadCache } from './services/tenantReadCache.ts';
import { readBudget } from './services/readBudget.ts';
import { readService } from './services/readService.ts';
import { schedulerQueryTest } from './services/schedulerQueryTest.ts';
import { resourceResolvers, resourceTypeDefs } from './graphql/resourceGraphql.ts';
import { resourceRoutes } from './api/resourceRoutes.ts';
import { resourceService, type AnswerCompletion, type ResourceServiceOptions } from './resources/resourceService.ts';
import { deviceResolvers, deviceTypeDefs } from './graphql/deviceGraphql.ts';
import { entityResolvers, entityTypeDefs } from './graphql/entityGraphql.ts';
import { deviceService } from './services/deviceService.ts';
import { entityAttributeService } from './services/entityAttributeService.ts';
import { overlayImageService } from './services/overlayImageService.ts';
import { boardMediaService } from './services/boardMediaService.ts';
import { frameOriginsService } from './services/frameOriginsService.ts';
import { syncDayZones } from './telemetry/dayZones.ts';
import { kpiComponentData } from './telemetry/kpiComponentData.ts';
import { kpiDataService } from './telemetry/kpiData.ts';

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
  /** Requests an API token may make per window (600 a minute by default). */
  apiRateLimit?: RateLimit;
  /** How often this instance says it is alive, and after how long a silent one is dead (ms; 5 s and 20 s). */
  instanceHeartbeat?: { everyMs?: number; deadAfterMs?: number };
  /** What one answer may hold (characters of JSON; 16 MiB by default, tests make it small). */
  maxAnswerChars?: number;
}

/** Device ingestion, shared by the HTTP routes, the MQTT listener, CSV import and the demo. */
export interface Ingestion {
  writer: TelemetryWriter;
  devices: DeviceIngest;
  problems: IngestProblems;
  /** Serves MQTT connections: TCP (startMqttListener) and WebSocket (`/mqtt`). */
  broker: MqttBroker;
}

declare module 'fastify' {
  interface FastifyInstance { ingestion: Ingestion; downlink: DeviceDownlinkServices; instanceId: string }
}

/** What goes from the platform to devices (deviceDownlinkOf). */
export interface DeviceDownlinkServices { commands: DeviceCommands; attributes: DeviceAttributeService }

const OFFLINE_BASE_MAP: BaseMap = { kind: 'offline' };

/** The largest request body (413 beyond it). */
export const MAX_BODY_BYTES = 512 * 1024;

/** GraphQL over HTTP and WebSocket. */
const GRAPHQL_PATH = '/graphql';

/**
 * On close, what the telemetry writer has queued is written for at most this long (a backlog
 * beyond is given up: none of it was acknowledged), so the server stops within its deadline.
 */
const WRITER_DRAIN_MS = 4_000;

/** How often commands past their time to live are marked expired. */
const COMMAND_EXPIRY_EVERY_MS = 30_000;

/** Keep-alive pings on the GraphQL WebSocket (the client's timeout is 50 s). */
const WS_KEEP_ALIVE_MS = 20_000;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.https ? { https: options.https } : {}),
    logger: options.logger ?? false,
    // X-Forwarded-For is believed only from configured proxies (TRUST_PROXY), so a client cannot
    // choose the address the sign-in throttle counts.
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    // JSON.parse of a body is one synchronous step: 512 kB parses in ~20 ms here; megabytes would stall the others.
    bodyLimit: MAX_BODY_BYTES,
    // Our own ids only: a client-sent X-Request-Id would let it forge log lines.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    ajv: { customOptions: { ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords], formats: { ...AJV_OPTIONS.formats } }, plugins: [...AJV_PLUGINS] },
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  if (options.tracing) traceRequests(app, options.tracing);
  if (options.diskGuard) refuseWhileDiskIsFull(app, options.diskGuard);
  installErrorHandling(app);
  installJsonBodyParser(app, GRAPHQL_PATH);
  const maxAnswerChars = options.maxAnswerChars ?? MAX_ANSWER_CHARS;
  boundAnswerBytes(app, maxAnswerChars, GRAPHQL_PATH);
  const baseMap = options.baseMap ?? OFFLINE_BASE_MAP;
  await installSecurityHeaders(app, { mapOrigins: mapOrigins(baseMap, options.mapTileHosts ?? []), hsts: options.hsts ?? false });
  await installCompression(app);
  app.decorateRequest('caller', null);
  // This process among the instances sharing the database (its live events, its device connections).
  app.decorate('instanceId', randomUUID());

  const throttle = loginThrottle(throttleStore(options.db), options.throttle);
  const auth = authService(authStore(options.db), tokenSigner(options.jwtSecret), throttle);
  let graphqlSockets: GraphqlSockets | undefined;
  const sessionSockets = socketSessions(() => graphqlSockets, auth.sessionIsLive);
  await options.db.listen(CHANNELS.sessionRevoked, (sessionId) => {
    auth.forgetSession(sessionId);
    sessionSockets.revoked(sessionId);
  });
  const apiTokens = apiTokenService(options.db, throttle, { rateLimit: options.apiRateLimit });
  await options.db.listen(CHANNELS.apiTokensRevoked, apiTokens.forgetTokens);
  // a bearer token is a user's access token or an API user's token
  const callers = bearerAuthentication(auth, apiTokens);
  const tenantReads = tenantReadCache();
  await options.db.listen(CHANNELS.tenantDataChanged, tenantReads.invalidate);
  const budget = readBudget();
  const reads = readService(options.db, tenantReads, budget);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Terrasight API', version: '0.1.0', description: 'REST API of Terrasight. GraphQL is served at /graphql.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    // GraphQL describes itself (introspection, for signed-in users); its HTTP route is not REST.
    transform: ({ schema, url }: { schema: object; url: string }) => ({ schema: url === GRAPHQL_PATH ? { ...schema, hide: true } : schema, url }),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  authRoutes(app, auth);
  publicAuthRoutes(app, apiTokens);
  clientErrorRoutes(app);
  healthRoutes(app, readinessProbe(() => options.db.systemQuery(sql`SELECT 1`)));

  let pubsub: PubSub | undefined;
  // a deploy that replaces the web app is told to the open tabs of this instance
  const webAppBuild = watchWebAppBuild(options.webDir, (buildId) => {
    Promise.resolve().then(() => pubsub?.publish({ topic: WEB_APP_BUILD_TOPIC, payload: webAppBuildEvent(buildId) }))
      .catch((error: unknown) => app.log.error({ err: error }, 'announcing the web app build failed'));
  });
  app.addHook('onClose', async () => webAppBuild.stop());
  const live = liveEvents(() => {
    if (!pubsub) throw new Error('GraphQL is not ready');
    return pubsub;
  });
  app.decorate('live', live);
  const localDayZones = await syncDayZones(options.db, options.telemetryDayZones ?? []).catch((error: unknown) => {
    app.log.error({ err: error }, 'the local days of TELEMETRY_DAY_ZONES could not be built; daily buckets there read hourly rows');
    return [];
  });
  // the engines started below hear of every committed latest value
  const latestListeners: ((change: LatestChange) => void)[] = [];
  const ingestion = await ingestionOf(app, options, live, (change) => latestListeners.forEach((listener) => listener(change)));
  app.decorate('ingestion', ingestion);
  const heartbeat = await startInstanceHeartbeat(options.db, {
    instanceId: app.instanceId,
    ...options.instanceHeartbeat,
    onDisconnected: (changes, ms) => {
      for (const change of changes) {
        live.publishEntityUpdate(change.tenantId, {
          id: change.entityId, entity_type_id: change.entityTypeId, diff: { attributes: { active: false, lastActivityTime: ms } }, updated_at: change.updatedAt,
        }).catch((error: unknown) => app.log.error({ err: error }, 'live publish failed'));
      }
    },
    onRegistrationLost: () => {
      app.log.warn('this instance was taken for dead (not seen for too long): its devices connect again');
      ingestion.broker.endSessions();
    },
    onError: (error) => app.log.error({ err: error }, 'instance heartbeat failed'),
  });
  app.addHook('onClose', () => heartbeat.stop());
  // Notifications sent while this instance was not listening never arrive: what they would have
  // dropped from its caches is dropped now.
  options.db.onListenerRestored(() => {
    auth.forgetAllSessions();
    sessionSockets.recheck().catch((error: unknown) => app.log.error({ err: error }, 'checking the sockets\' sessions failed'));
    apiTokens.forgetTokens();
    tenantReads.invalidateAll();
    ingestion.devices.forgetAll();
  });
  await options.db.listen(CHANNELS.tenantDataChanged, ingestion.devices.forgetTenant);
  // A device's token rotated on any instance: its connections here close too.
  await options.db.listen(CHANNELS.deviceCredentialsRotated, (payload) => {
    const entityId = Number(payload);
    if (Number.isSafeInteger(entityId)) ingestion.devices.closeSessions(entityId);
  });
  httpIngestRoutes(app, ingestion.devices, ingestion.writer, ingestion.problems);
  const downlink = await deviceDownlinkOf(app, options, ingestion);
  app.decorate('downlink', downlink);
  const devices = deviceService(options.db, ingestion.writer, {
    credentialsRotated: (tenantId, entityId) => {
      ingestion.devices.forgetTenant(tenantId);
      ingestion.devices.closeSessions(entityId);
    },
  });
  // made once (its admission gate is the process's), on first use: it reads through `resources`
  let componentData: AnswerCompletion | undefined;
  const completions: ResourceServiceOptions['completions'] = () => ({
    public_api_component: componentData ??= kpiComponentData(resources, kpiData, { onError: (error) => app.log.error({ err: error }, 'a KPI component\'s data failed') }),
  });
  const resources = resourceService(options.db, {
    cache: tenantReads,
    completions,
    maxAnswerChars,
    onChange(tenantId, change) {
      tenantReads.invalidate(tenantId); // this instance at once; others through the tables' triggers
      live.publishResourceChange(tenantId, change).catch((error: unknown) => app.log.error({ err: error }, 'live publish failed'));
      const entityUpdate = entityUpdateOf(change);
      if (entityUpdate) {
        live.publishEntityUpdate(tenantId, { ...entityUpdate, updated_at: new Date().toISOString() })
          .catch((error: unknown) => app.log.error({ err: error }, 'live publish failed'));
      }
    },
  });

  const kpiData = kpiDataService(options.db, resources, { localDayZones, budget });

  const maintenance = maintenanceGuard(options.db);
  const entityAttributes = entityAttributeService(options.db, live, (tenantId) => tenantReads.invalidate(tenantId));
  if (options.engines !== false) {
    // an engine's log row queues its notifications in its own transaction; the sender goes after the commit
    const notifications = options.smtp
      ? startNotificationDelivery(options.db, { smtpUrl: options.smtp.url, from: options.smtp.from, onError: (error) => app.log.error({ err: error }, 'notification delivery failed') })
      : NOTIFICATIONS_OFF;
    /**
     * An engine's log hooks: in the log's transaction its e-mails are queued and its in-app
     * recipients found; after the commit the sender wakes and the log is published to them. One
     * per engine: each runs its transactions one after another, so what waits is committed.
     */
    const logged = () => {
      const inApp: { tenantId: string; logId: number; users: string[] }[] = [];
      return {
        onLogged: async (tx: Tx, tenantId: string, logId: number) => {
          await notifications.queueDeliveries(tx, tenantId, logId);
          inApp.push({ tenantId, logId, users: await inAppRecipients(tx, tenantId, logId) });
        },
        afterLogged: () => {
          notifications.wake();
          for (const { tenantId, logId, users } of inApp.splice(0)) {
            resources.publishEngineChange(tenantId, 'log', logId, { action: 'created', notify: users })
              .catch((error: unknown) => app.log.error({ err: error }, 'live publish failed'));
          }
        },
      };
    };
    const watcherEngine = startWatcherEngine(options.db, {
      ...logged(),
      everyMs: options.enginesEveryMs,
      onError: (error) => app.log.error({ err: error }, 'watcher evaluation failed'),
      onWatcherChanged: (tenantId, watcherId) => {
        resources.publishEngineChange(tenantId, 'watcher', watcherId).catch((error: unknown) => app.log.error({ err: error }, 'live publish failed'));
      },
    });
    latestListeners.push(watcherEngine.latestChanged);
    const schedulerEngine = startSchedulerEngine(options.db, {
      ...logged(),
      everyMs: options.enginesEveryMs,
      onError: (error) => app.log.error({ err: error }, 'scheduler run failed'),
      onEntitiesChanged: (tenantId, entities) => {
        tenantReads.invalidate(tenantId);
        const updatedAt = new Date().toISOString();
        for (const entity of entities) {
          live.publishEntityUpdate(tenantId, { id: entity.id, entity_type_id: entity.entity_type_id, diff: { attributes: entity.attributes }, updated_at: updatedAt })
            .catch((error: unknown) => app.log.error({ err: error }, 'live publish failed'));
        }
      },
      onSchedulerChanged: (tenantId, schedulerId) => {
        resources.publishEngineChange(tenantId, 'scheduler', schedulerId).catch((error: unknown) => app.log.error({ err: error }, 'live publish failed'));
      },
    });
    const lightingEngine = startLightingEngine(options.db, {
      everyMs: options.enginesEveryMs,
      now: options.lightingNow,
      onError: (error) => app.log.error({ err: error }, 'lighting tick failed'),
    });
    const maintenanceEngine = startMaintenanceEngine(options.db, {
      onError: (error) => app.log.error({ err: error }, 'maintenance window progress failed'),
      onWindowChanged: (tenantId, windowId) => {
        resources.publishEngineChange(tenantId, 'maintenance_window', windowId).catch((error: unknown) => app.log.error({ err: error }, 'live publish failed'));
      },
    });
    const commandExpiry = startWorkLoop({
      everyMs: COMMAND_EXPIRY_EVERY_MS, work: downlink.commands.expire, onError: (error) => app.log.error({ err: error }, 'command expiry failed'),
    });
    app.addHook('onClose', async () => {
      await Promise.all([watcherEngine.stop(), schedulerEngine.stop(), lightingEngine.stop(), maintenanceEngine.stop(), commandExpiry.stop()]);
      await notifications.stop(); // no further e-mail begun; those under way settle while the database is open
    });
  }

  // Everything registered in this scope needs a valid access token; an API token reaches only the
  // public API (server/api/publicApiDoors.ts).
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      // The GraphQL WebSocket authenticates with its connection payload instead (below).
      if (request.headers.upgrade?.toLowerCase() === 'websocket') return;
      request.caller = await callerOf(request, callers);
      refuseOutsidePublicApi(request, GRAPHQL_PATH);
    });
    refuseRestWritesWhileReadOnly(scope, maintenance);
    readRoutes(scope, reads, baseMap);
    profileRoutes(scope, passwordService(options.db));
    resourceRoutes(scope, resources);
    const apiUsers = apiUserService(options.db, apiTokens);
    apiUserRoutes(scope, apiUsers);
    kpiDataRoutes(scope, kpiData);
    schedulerQueryTestRoutes(scope, schedulerQueryTest(options.db, { budget }));
    await overlayImageRoutes(scope, overlayImageService(options.db));
    await boardMediaRoutes(scope, boardMediaService(options.db));
    frameOriginsRoutes(scope, frameOriginsService(options.db, (tenantId) => tenantReads.invalidate(tenantId)));
    // WebSockets for GraphQL subscriptions and MQTT (mercurius uses this registration, as it
    // would have made it: 1 MB messages). The GraphQL socket's frames are checked before mercurius sees them.
    graphqlSockets = guardGraphqlSocket(scope, GRAPHQL_PATH, () => scope.graphql.schema);
    await scope.register(fastifyWebsocket, { options: { maxPayload: 1_048_576 }, errorHandler: onWebSocketError });
    await scope.register(mercurius, {
      schema: [typeDefs, resourceTypeDefs(), deviceTypeDefs, entityTypeDefs, lightingTypeDefs, apiUserTypeDefs, webAppBuildTypeDefs],
      resolvers: mergeResolvers(resolvers(reads), resourceResolvers(resources), deviceResolvers(devices), entityResolvers(entityAttributes, resources),
        lightingResolvers(lightingService(options.db, { now: options.lightingNow ?? Date.now })), apiUserResolvers(apiUsers), webAppBuildResolvers(webAppBuild)),
      path: GRAPHQL_PATH,
      graphiql: false,
      allowBatchedQueries: false, // one operation per request: a batch would multiply every limit
      graphql: { parseOptions: graphqlParseOptions },
      validationRules: graphqlValidationRules,
      queryDepth: GRAPHQL_LIMITS.maxDepth, // mercurius' own check also covers subscriptions on the websocket
      errorFormatter: graphqlErrorFormatter,
      // a mutation is refused during read-only maintenance by the preExecution hook, a query never
      additionalRouteOptions: { preHandler: [checkGraphqlRequest, refuseNonPublicGraphql], config: { duringReadOnly: true } },
      context: (request): GraphqlContext => ({ caller: request.caller ?? undefined }),
      subscription: {
        keepAlive: WS_KEEP_ALIVE_MS,
        onConnect: async ({ payload }: { payload?: Record<string, unknown> }) => {
          const header = payload?.authorization ?? payload?.Authorization;
          const token = bearerToken(typeof header === 'string' ? header : undefined);
          if (!token) return false;
          // A refused token is the client's mistake, not a failure for mercurius to log: 4403 closes the
          // socket; so does an API token (no subscription is public).
          return callers.authenticate(token).then((caller) => (mayOpenSubscriptions(caller) ? { caller } : false), (error: unknown) => {
            if (error instanceof ApiError) return false;
            throw error;
          });
        },
      },
    });
    scope.graphql.addHook('preValidation', refuseUnparsedDocument);
    scope.graphql.addHook('preExecution', graphqlReadOnlyHook(maintenance));
    scope.graphql.addHook('preSubscriptionExecution', sessionSockets.subscribing);
    pubsub = scope.graphql.pubsub;
    // MQTT over WebSocket for devices that can only speak HTTP(S) ports; the device authenticates
    // with its token in the MQTT CONNECT, not with a user's bearer token.
    scope.route({
      method: 'GET', url: '/mqtt', schema: { hide: true },
      handler: async (_request, reply) => reply.status(426).send({ errors: [{ code: 'UPGRADE_REQUIRED', message: 'MQTT over WebSocket: connect with a WebSocket client' }] }),
      wsHandler: (socket, request) => ingestion.broker.handle(createWebSocketStream(socket), request.ip),
    });
  });

  if (options.db.kind === 'postgres') await connectInstances(app, options.db, live, () => graphqlSockets?.restartAll());
  await serveWebApp(app, options.webDir);
  return app;
}

async function ingestionOf(app: FastifyInstance, options: AppOptions, live: LiveEvents, latestChanged: (change: LatestChange) => void): Promise<Ingestion> {
  const problems = ingestProblems((line) => app.log.warn(line));
  const devices = deviceIngest(options.db, live, problems, app.instanceId, options.ingestLimits);
  const writer = telemetryWriter(options.db, {
    limits: options.writerLimits,
    onLatest: (changes) => changes.forEach((change) => {
      devices.latestChanged(change);
      latestChanged(change);
    }),
    onError: (error) => problems.report('write_failed', 'telemetry writer', error instanceof Error ? error.message.slice(0, 200) : 'a batch failed'),
    // A fresh reading before every batch: a backlog can fill the reserve within the requests' second.
    isBlocked: options.diskGuard ? () => options.diskGuard!.isFull(0) : undefined,
  });
  const broker = await createMqttBroker(devices, writer, problems, {
    limits: options.mqttLimits,
    onError: (error, where) => app.log.error({ err: error }, `device transport: ${where} failed`),
  });
  app.addHook('onClose', async () => {
    await broker.close();
    await writer.close(WRITER_DRAIN_MS);
    await devices.close();
  });
  return { writer, devices, problems, broker };
}

/**
 * What goes from the platform to devices: commands and shared attributes, announced by whichever
 * instance queued them and sent by the one holding each device's connection; the devices'
 * requests and answers over MQTT and HTTP.
 */
async function deviceDownlinkOf(app: FastifyInstance, options: AppOptions, ingestion: Ingestion): Promise<DeviceDownlinkServices> {
  const report = (what: string) => (error: unknown) => app.log.error({ err: error }, what);
  const commands = deviceCommands(options.db, ingestion.broker, { onError: report('device command failed') });
  const attributes = deviceAttributeService(options.db, ingestion.broker);
  const requests = deviceRequests(ingestion.devices, commands, attributes, ingestion.broker);
  await options.db.listen(CHANNELS.deviceCommandsQueued, (payload) => { commands.announced(payload).catch(report('sending commands failed')); });
  await options.db.listen(CHANNELS.sharedAttributesChanged, (payload) => { attributes.announced(payload).catch(report('pushing attributes failed')); });
  // what was announced while this instance was not listening never arrives: what waits is sent again
  options.db.onListenerRestored(() => {
    commands.resendWaiting().catch(report('sending commands failed'));
    attributes.resendShared().catch(report('pushing attributes failed'));
  });
  ingestion.broker.onSubscribe((device, topicFilter) => commands.subscribed(device, topicFilter));
  ingestion.broker.handleRequests(requests);
  httpDownlinkRoutes(app, ingestion.devices, commands, attributes, ingestion.problems);
  return { commands, attributes };
}

/** The cluster bus's event of a device session opened (not a subscription topic). */
const SESSION_OPENED_TOPIC = 'device_session_opened';

/**
 * Several instances may share a PostgreSQL database: live events and device sessions opened go
 * to the others too. When
 * events meant for this instance's subscribers may have been lost, their sockets are closed: they
 * connect again (to any instance) and read afresh.
 */
async function connectInstances(app: FastifyInstance, db: Database, live: LiveBus, restartSubscribers: () => void) {
  const bus = await startClusterBus({
    db,
    instanceId: app.instanceId,
    deliver: (event) => {
      if (event.topic !== SESSION_OPENED_TOPIC) return live.receive(event);
      const { key, openedAt } = event.payload as { key?: unknown; openedAt?: unknown };
      if (typeof key === 'string' && typeof openedAt === 'number') app.ingestion.broker.takenOver(key, openedAt);
    },
    onGap: () => {
      app.log.warn('live events of other instances were missed: subscribers connect again');
      restartSubscribers();
    },
    onError: (error) => app.log.error({ err: error }, 'live events between instances failed'),
  });
  live.connect(bus);
  // a device's second connection (same token and client id) on another instance takes over
  app.ingestion.broker.onSessionOpened((key, openedAt) => bus.send({ topic: SESSION_OPENED_TOPIC, payload: { key, openedAt } }));
  app.addHook('onClose', () => bus.close());
}

/** Every route that reaches the database answers 503 while the data directory's disk is full. */
function refuseWhileDiskIsFull(app: FastifyInstance, guard: DiskGuard) {
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route || route === '/*' || route.startsWith('/api/docs')) return; // static files, the SPA, the API docs
    if (await guard.isFull()) return sendUnavailable(request, reply);
  });
}

/** Resolver maps side by side: the shell's reads and the models' generated doors. */
function mergeResolvers(...maps: IResolvers[]): IResolvers {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map)) merged[type] = { ...merged[type], ...(fields as Record<string, unknown>) };
  }
  return merged as IResolvers;
}

/** A hop count becomes Fastify's function form (its types know only booleans, lists and functions). */
const fastifyTrustProxy = (trust: TrustProxy) => (typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust);
