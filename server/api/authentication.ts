// Who is calling: users' sessions (sign-in, refresh, sign-out; a revocation is heard from every
// instance and closes the session's sockets) and API users' tokens. A bearer token is either.
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../appOptions.ts';
import { tokenSigner } from '../auth/accessToken.ts';
import { loginThrottle } from '../auth/loginThrottle.ts';
import { authStore } from '../db/authStore.ts';
import { CHANNELS } from '../db/database.ts';
import { throttleStore } from '../db/throttleStore.ts';
import { logsFailure } from '../logsFailure.ts';
import type { GraphqlSockets } from '../graphql/socketGuard.ts';
import { socketSessions } from '../graphql/socketSessions.ts';
import { apiTokenService } from '../services/apiTokenService.ts';
import { authService } from '../services/authService.ts';
import { bearerAuthentication } from '../services/bearerAuthentication.ts';
import { authRoutes } from './authRoutes.ts';
import { publicAuthRoutes } from './publicAuthRoutes.ts';

/** `sockets`: the GraphQL sockets once they exist (a revoked session's are closed). */
export async function startAuthentication(app: FastifyInstance, options: AppOptions, sockets: () => GraphqlSockets | undefined) {
  const throttle = loginThrottle(throttleStore(options.db), options.throttle);
  const auth = authService(authStore(options.db), tokenSigner(options.jwtSecret), throttle);
  const sessionSockets = socketSessions(sockets, auth.sessionIsLive);
  await options.db.listen(CHANNELS.sessionRevoked, (sessionId) => {
    auth.forgetSession(sessionId);
    sessionSockets.revoked(sessionId);
  });
  const apiTokens = apiTokenService(options.db, throttle, { rateLimit: options.apiRateLimit });
  await options.db.listen(CHANNELS.apiTokensRevoked, apiTokens.forgetTokens);
  // Revocations sent while this instance was not listening never arrive: what they would have
  // dropped from its caches is dropped now.
  options.db.onListenerRestored(() => {
    auth.forgetAllSessions();
    sessionSockets.recheck().catch(logsFailure(app.log, 'checking the sockets\' sessions failed'));
    apiTokens.forgetTokens();
  });
  authRoutes(app, auth);
  publicAuthRoutes(app, apiTokens);
  return {
    apiTokens,
    sessionSockets,
    // a bearer token is a user's access token or an API user's token
    callers: bearerAuthentication(auth, apiTokens),
  };
}
