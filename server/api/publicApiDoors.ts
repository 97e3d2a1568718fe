// The doors an API caller (a request with an API user's token) may use: the public-API REST paths
// and GraphQL fields, listed here and nowhere else. Every other door answers it 403, decided once
// per request, not door by door: `refuseOutsidePublicApi` runs in the signed-in scope's onRequest
// hook right after the token is resolved; a GraphQL document is checked before it is parsed by
// mercurius (server/graphql/publicApiGate.ts); the GraphQL WebSocket refuses the token at its
// handshake, since no subscription is public. The sign-in and sign-out of API users
// (/public/auth/*) sit outside the signed-in scope, as /auth/* do.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { isApiCaller, type Caller } from '../auth/caller.ts';

/** REST paths (as routes are declared) of the public API. */
export const PUBLIC_API_REST_PATHS: ReadonlySet<string> = new Set([
  '/public-api-component-list',
  '/public-api-board-list',
  // the files of public-API boards' image and video components (read only)
  '/board-media/:id',
]);

/** GraphQL fields of the public API (at the root of a query or mutation). */
export const PUBLIC_API_GRAPHQL_FIELDS: ReadonlySet<string> = new Set([
  'public_api_board_list',
  'public_api_board',
  'public_api_component_list',
  'public_api_component',
  'public_api_share_list',
  'public_api_share',
  'public_api_share_board',
  'public_api_remove_share_board',
  'public_api_create_board',
  'public_api_update_board',
  'public_api_delete_board',
  'public_api_create_component',
  'public_api_update_component',
  'public_api_delete_component',
  '__typename',
]);

export const apiCallerRefused = () => new ApiError(403, 'FORBIDDEN', 'An API token can only use the public API.');

/** onRequest, after sign-in: an API caller reaches the public REST paths and the GraphQL route (whose documents are checked on their own). */
export function refuseOutsidePublicApi(request: FastifyRequest, graphqlPath: string): void {
  if (!isApiCaller(request.caller)) return;
  const route = request.routeOptions.url;
  if (route !== undefined && (route === graphqlPath || PUBLIC_API_REST_PATHS.has(route))) return;
  throw apiCallerRefused();
}

/** Whether the caller may open the GraphQL WebSocket (subscriptions only run there; none is public). */
export const mayOpenSubscriptions = (caller: Caller) => !isApiCaller(caller);
