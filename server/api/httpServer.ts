// The HTTP server every door is added to: our own request ids, the configured proxies, bodies and
// answers bounded, validation with the schemas' own rules, errors in the documented shape,
// security headers, compression and the OpenAPI document of the routes added after it.
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { AJV_PLUGINS } from '../../src/schemas/ajvInstance.ts';
import type { BaseMap } from '../../src/schemas/mapConfig.ts';
import { AJV_OPTIONS } from '../../src/schemas/validation.ts';
import type { AppOptions } from '../appOptions.ts';
import type { TrustProxy } from '../config.ts';
import type { DiskGuard } from '../db/diskGuard.ts';
import { MAX_ANSWER_CHARS } from '../errors.ts';
import { GRAPHQL_PATH } from '../graphql/limits.ts';
import { traceRequests } from '../tracing.ts';
import { boundAnswerBytes } from './answerBytes.ts';
import { installErrorHandling, sendUnavailable } from './httpErrors.ts';
import { installJsonBodyParser } from './jsonBodyParser.ts';
import { installSecurityHeaders, mapOrigins } from './securityHeaders.ts';
import { installCompression } from './webApp.ts';

/** The largest request body (413 beyond it). */
export const MAX_BODY_BYTES = 512 * 1024;

export const OFFLINE_BASE_MAP: BaseMap = { kind: 'offline' };

export async function createHttpServer(options: AppOptions): Promise<FastifyInstance> {
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
  boundAnswerBytes(app, options.maxAnswerChars ?? MAX_ANSWER_CHARS, GRAPHQL_PATH);
  await installSecurityHeaders(app, { mapOrigins: mapOrigins(options.baseMap ?? OFFLINE_BASE_MAP, options.mapTileHosts ?? []), hsts: options.hsts ?? false });
  await installCompression(app);
  app.decorateRequest('caller', null);
  // This process among the instances sharing the database (its live events, its device connections).
  app.decorate('instanceId', randomUUID());
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Terrasight API', version: '0.1.0', description: 'REST API of Terrasight. GraphQL is served at /graphql.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    // GraphQL describes itself (introspection, for signed-in users); its HTTP route is not REST.
    transform: ({ schema, url }: { schema: object; url: string }) => ({ schema: url === GRAPHQL_PATH ? { ...schema, hide: true } : schema, url }),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  return app;
}

/** Every route that reaches the database answers 503 while the data directory's disk is full. */
function refuseWhileDiskIsFull(app: FastifyInstance, guard: DiskGuard) {
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route || route === '/*' || route.startsWith('/api/docs')) return; // static files, the SPA, the API docs
    if (await guard.isFull()) return sendUnavailable(request, reply);
  });
}

/** A hop count becomes Fastify's function form (its types know only booleans, lists and functions). */
const fastifyTrustProxy = (trust: TrustProxy) => (typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust);

declare module 'fastify' {
  interface FastifyInstance { instanceId: string }
}
