// GraphQL over HTTP and WebSocket (mercurius): the schema of every part, the document limits,
// errors in the REST terms, read-only maintenance, and subscriptions authenticated by the
// socket's connection payload (a user's access token; an API token opens none). The socket's
// frames are checked before mercurius sees them.
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import mercurius, { type IResolvers, type PubSub } from 'mercurius';
import { bearerToken } from '../api/authenticate.ts';
import { mayOpenSubscriptions } from '../api/publicApiDoors.ts';
import { graphqlReadOnlyHook } from '../api/readOnlyMaintenance.ts';
import { onWebSocketError } from '../api/websocketErrors.ts';
import { ApiError } from '../errors.ts';
import type { Authenticator } from '../services/bearerAuthentication.ts';
import type { MaintenanceGuard } from '../services/maintenanceGuard.ts';
import { graphqlErrorFormatter } from './errorFormatter.ts';
import { checkGraphqlRequest, refuseUnparsedDocument } from './graphqlRequest.ts';
import { GRAPHQL_LIMITS, GRAPHQL_PATH, graphqlParseOptions, graphqlValidationRules } from './limits.ts';
import { refuseNonPublicGraphql } from './publicApiGate.ts';
import type { GraphqlContext } from './resolvers.ts';
import { guardGraphqlSocket, type GraphqlSockets } from './socketGuard.ts';
import type { SocketSessions } from './socketSessions.ts';

/** Keep-alive pings on the GraphQL WebSocket (the client's timeout is 50 s). */
const WS_KEEP_ALIVE_MS = 20_000;

export interface GraphqlParts {
  /** Each part's type definitions and resolvers. */
  schema: string[];
  resolvers: IResolvers[];
  callers: Authenticator;
  maintenance: MaintenanceGuard;
  sessionSockets: SocketSessions;
}

/** Registers GraphQL in `scope` (whose hook has authenticated the HTTP requests); its pubsub and sockets. */
export async function graphqlRoutes(scope: FastifyInstance, parts: GraphqlParts): Promise<{ pubsub: PubSub; sockets: GraphqlSockets }> {
  const sockets = guardGraphqlSocket(scope, GRAPHQL_PATH, () => scope.graphql.schema);
  // WebSockets for GraphQL subscriptions and MQTT (mercurius uses this registration, as it would
  // have made it: 1 MB messages)
  await scope.register(fastifyWebsocket, { options: { maxPayload: 1_048_576 }, errorHandler: onWebSocketError });
  await scope.register(mercurius, {
    schema: parts.schema,
    resolvers: mergeResolvers(...parts.resolvers),
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
        return parts.callers.authenticate(token).then((caller) => (mayOpenSubscriptions(caller) ? { caller } : false), (error: unknown) => {
          if (error instanceof ApiError) return false;
          throw error;
        });
      },
    },
  });
  scope.graphql.addHook('preValidation', refuseUnparsedDocument);
  scope.graphql.addHook('preExecution', graphqlReadOnlyHook(parts.maintenance));
  scope.graphql.addHook('preSubscriptionExecution', parts.sessionSockets.subscribing);
  return { pubsub: scope.graphql.pubsub, sockets };
}

/** Resolver maps side by side: the shell's reads and the models' generated doors. */
function mergeResolvers(...maps: IResolvers[]): IResolvers {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map)) merged[type] = { ...merged[type], ...(fields as Record<string, unknown>) };
  }
  return merged as IResolvers;
}
