// The composition root: builds the server's parts and starts them (testable without a port:
// app.inject). What reacts to a commit lives with what it serves (server/events/postCommit.ts).
import type { FastifyInstance } from 'fastify';
import type { PubSub } from 'mercurius';
import { apiUserRoutes } from './api/apiUserRoutes.ts';
import { callerOf } from './api/authenticate.ts';
import { startAuthentication } from './api/authentication.ts';
import { boardMediaRoutes } from './api/boardMediaRoutes.ts';
import { clientErrorRoutes } from './api/clientErrorRoutes.ts';
import { frameOriginsRoutes } from './api/frameOriginsRoutes.ts';
import { healthRoutes, readinessProbe } from './api/healthRoutes.ts';
import { createHttpServer, OFFLINE_BASE_MAP } from './api/httpServer.ts';
import { kpiDataRoutes } from './api/kpiDataRoutes.ts';
import { overlayImageRoutes } from './api/overlayImageRoutes.ts';
import { profileRoutes } from './api/profileRoutes.ts';
import { refuseOutsidePublicApi } from './api/publicApiDoors.ts';
import { readRoutes } from './api/readRoutes.ts';
import { mapClusterRoutes } from './api/mapClusterRoutes.ts';
import { refuseRestWritesWhileReadOnly } from './api/readOnlyMaintenance.ts';
import { resourceRoutes } from './api/resourceRoutes.ts';
import { schedulerQueryTestRoutes } from './api/schedulerQueryTestRoutes.ts';
import { serveWebApp } from './api/webApp.ts';
import type { AppOptions } from './appOptions.ts';
import { CHANNELS } from './db/database.ts';
import { ping } from './db/housekeeping.ts';
import { startEngines } from './engines/startEngines.ts';
import { MAX_ANSWER_CHARS } from './errors.ts';
import { logsFailure } from './logsFailure.ts';
import { postCommitEvents } from './events/postCommit.ts';
import { foreground, NO_FOREGROUND } from './foreground.ts';
import { countRequestsAsForeground } from './api/foregroundHooks.ts';
import { apiUserResolvers, apiUserTypeDefs } from './graphql/apiUserGraphql.ts';
import { deviceResolvers, deviceTypeDefs } from './graphql/deviceGraphql.ts';
import { entityResolvers, entityTypeDefs } from './graphql/entityGraphql.ts';
import { graphqlRoutes } from './graphql/graphqlRoutes.ts';
import { GRAPHQL_PATH } from './graphql/limits.ts';
import { lightingResolvers, lightingTypeDefs } from './graphql/lightingGraphql.ts';
import { resolvers } from './graphql/resolvers.ts';
import { resourceResolvers, resourceTypeDefs } from './graphql/resourceGraphql.ts';
import { typeDefs } from './graphql/schema.ts';
import type { GraphqlSockets } from './graphql/socketGuard.ts';
import { webAppBuildEvent, webAppBuildResolvers, webAppBuildTypeDefs } from './graphql/webAppBuildGraphql.ts';
import { mqttOverWebSocket, startDevices } from './ingest/ingestion.ts';
import { connectInstances } from './live/clusterWiring.ts';
import { liveEvents } from './live/liveEvents.ts';
import { publishCommitsLive } from './live/liveWiring.ts';
import { WEB_APP_BUILD_TOPIC, watchWebAppBuild } from './live/webAppBuild.ts';
import { resourceService, type AnswerCompletion } from './resources/resourceService.ts';
import { apiUserService } from './services/apiUserService.ts';
import { boardMediaService } from './services/boardMediaService.ts';
import { deviceService } from './services/deviceService.ts';
import { entityAttributeService } from './services/entityAttributeService.ts';
import { frameOriginsService } from './services/frameOriginsService.ts';
import { lightingService } from './services/lightingService.ts';
import { maintenanceGuard } from './services/maintenanceGuard.ts';
import { overlayImageService } from './services/overlayImageService.ts';
import { passwordService } from './services/passwordService.ts';
import { readBudget } from './services/readBudget.ts';
import { readService } from './services/readService.ts';
import { mapIndexService } from './services/mapIndexService.ts';
import { keepMapIndexCurrent, mapIndexHeard } from './live/mapIndexWiring.ts';
import { schedulerQueryTest } from './services/schedulerQueryTest.ts';
import { invalidatedByCommits, tenantReadCache } from './cache/tenantReadCache.ts';
import { syncDayZones } from './db/dayZoneQueries.ts';
import { kpiComponentData } from './telemetry/kpiComponentData.ts';
import { answerPoints, kpiDataService } from './telemetry/kpiData.ts';
import { closedBuckets } from './cache/closedBuckets.ts';
import { invalidatedByChanges, kpiAnswerCache } from './cache/kpiAnswerCache.ts';

export type { AppOptions } from './appOptions.ts';

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { db } = options;
  const app = await createHttpServer(options);
  // the engines' statements wait for the requests under way on the embedded database
  const front = db.kind === 'pglite' ? foreground() : NO_FOREGROUND;
  countRequestsAsForeground(app, front);
  const events = postCommitEvents(app.log);
  // the cache hears a commit before the live bus does: a subscriber reading again reads it fresh
  const tenantReads = tenantReadCache();
  invalidatedByCommits(tenantReads, events);
  await db.listen(CHANNELS.tenantDataChanged, tenantReads.invalidate);
  db.onListenerRestored(() => tenantReads.invalidateAll());
  const kpiAnswers = kpiAnswerCache(answerPoints, options.kpiAnswersNow);
  const kpiBuckets = closedBuckets(options.kpiAnswersNow);
  invalidatedByChanges(events, kpiAnswers, kpiBuckets);
  // the map's grids too: a map told of a change over the live bus reads them changed
  const budget = readBudget();
  const mapIndex = mapIndexService(db, budget);
  keepMapIndexCurrent(mapIndex, events);
  app.addHook('onClose', async () => mapIndex.close());
  let pubsub: PubSub | undefined;
  const live = liveEvents(() => pubsub);
  app.decorate('live', live);
  publishCommitsLive(events, live);

  let graphqlSockets: GraphqlSockets | undefined;
  const authentication = await startAuthentication(app, options, () => graphqlSockets);
  clientErrorRoutes(app);
  healthRoutes(app, readinessProbe(() => ping(db)));
  // a deploy that replaces the web app is told to the open tabs of this instance
  const webAppBuild = watchWebAppBuild(options.webDir, (buildId) => {
    Promise.resolve().then(() => pubsub?.publish({ topic: WEB_APP_BUILD_TOPIC, payload: webAppBuildEvent(buildId) }))
      .catch(logsFailure(app.log, 'announcing the web app build failed'));
  });
  app.addHook('onClose', async () => webAppBuild.stop());
  const localDayZones = await syncDayZones(db, options.telemetryDayZones ?? []).catch((error: unknown) => {
    app.log.error({ err: error }, 'the local days of TELEMETRY_DAY_ZONES could not be built; daily buckets there read hourly rows');
    return [];
  });
  const { ingestion, downlink } = await startDevices(app, options, events);

  const reads = readService(db, tenantReads, budget);
  // made once (its admission gate is the process's), on first use: it reads through `resources`
  let componentData: AnswerCompletion | undefined;
  const resources = resourceService(db, {
    events,
    cache: tenantReads,
    maxAnswerChars: options.maxAnswerChars ?? MAX_ANSWER_CHARS,
    completions: () => ({
      public_api_component: componentData ??= kpiComponentData(resources, kpiData, { onError: logsFailure(app.log, 'a KPI component\'s data failed') }),
    }),
  });
  const kpiData = kpiDataService(db, resources, {
    localDayZones, budget, answers: kpiAnswers, closed: kpiBuckets, retentionDays: options.telemetryRetentionDays, clock: options.kpiAnswersNow,
  });
  const maintenance = maintenanceGuard(db);
  const apiUsers = apiUserService(db, authentication.apiTokens);
  const devices = deviceService(db, ingestion.writer, { credentialsRotated: ingestion.devices.credentialsRotated });
  if (options.engines !== false) startEngines(app, options, events, downlink.commands, front);

  // Everything registered in this scope needs a valid access token; an API token reaches only the
  // public API (server/api/publicApiDoors.ts).
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      // The GraphQL WebSocket authenticates with its connection payload instead (graphqlRoutes.ts).
      if (request.headers.upgrade?.toLowerCase() === 'websocket') return;
      request.caller = await callerOf(request, authentication.callers);
      refuseOutsidePublicApi(request, GRAPHQL_PATH);
    });
    refuseRestWritesWhileReadOnly(scope, maintenance);
    readRoutes(scope, reads, options.baseMap ?? OFFLINE_BASE_MAP);
    mapClusterRoutes(scope, mapIndex);
    profileRoutes(scope, passwordService(db));
    resourceRoutes(scope, resources);
    apiUserRoutes(scope, apiUsers);
    kpiDataRoutes(scope, kpiData);
    schedulerQueryTestRoutes(scope, schedulerQueryTest(db, { budget }));
    await overlayImageRoutes(scope, overlayImageService(db));
    await boardMediaRoutes(scope, boardMediaService(db));
    frameOriginsRoutes(scope, frameOriginsService(db, (tenantId) => events.emit('tenant.changed', { tenantId })));
    const graphql = await graphqlRoutes(scope, {
      schema: [typeDefs, resourceTypeDefs(), deviceTypeDefs, entityTypeDefs, lightingTypeDefs, apiUserTypeDefs, webAppBuildTypeDefs],
      resolvers: [resolvers(reads), resourceResolvers(resources), deviceResolvers(devices), entityResolvers(entityAttributeService(db, events), resources),
        lightingResolvers(lightingService(db, { now: options.lightingNow ?? Date.now })), apiUserResolvers(apiUsers), webAppBuildResolvers(webAppBuild)],
      callers: authentication.callers,
      maintenance,
      sessionSockets: authentication.sessionSockets,
    });
    pubsub = graphql.pubsub;
    graphqlSockets = graphql.sockets;
    mqttOverWebSocket(scope, ingestion.broker);
  });

  if (db.kind === 'postgres') {
    await connectInstances(app, db, live, ingestion.broker, events, () => {
      graphqlSockets?.restartAll();
      kpiBuckets.forget(); // late points of other instances may have been missed
      mapIndex.forget();
    }, (event) => void mapIndexHeard(mapIndex, event).catch(logsFailure(app.log, 'the map index missed a change of another instance')));
  }
  await serveWebApp(app, options.webDir);
  return app;
}
