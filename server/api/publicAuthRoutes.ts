// POST /public/auth/login and /public/auth/logout: API users sign in for a token and sign it out.
// Outside the signed-in scope, as /auth/* are; a malformed sign-in counts against the sign-in
// throttle like a wrong password.
import type { FastifyInstance } from 'fastify';
import { apiLoginSchema, issuedTokenSchema, type ApiLoginBody } from '../../src/schemas/apiUser.ts';
import { isApiToken } from '../auth/apiTokens.ts';
import { invalidToken, type ApiError } from '../errors.ts';
import type { ApiTokenService } from '../services/apiTokenService.ts';
import { bearerToken } from './authenticate.ts';
import { isMalformedRequest, replyWithError } from './httpErrors.ts';
import { bodySchema, errorResponses } from './openapi.ts';

export function publicAuthRoutes(app: FastifyInstance, tokens: ApiTokenService) {
  const tags = ['api-users'];
  app.post<{ Body: ApiLoginBody }>('/public/auth/login', {
    schema: { tags, summary: 'Sign an API user in: a new token', body: bodySchema(apiLoginSchema), response: { 200: issuedTokenSchema, ...errorResponses } },
    errorHandler: async (error, request, reply) => {
      if (isMalformedRequest(error)) {
        try {
          await tokens.countMalformedLogin(request.body, request.ip);
        } catch (throttled) {
          return replyWithError(throttled as ApiError, request, reply);
        }
      }
      return replyWithError(error, request, reply);
    },
  }, (request) => tokens.login(request.body, request.ip));

  app.post('/public/auth/logout', {
    schema: { tags, summary: 'Sign the API token of the request out (revokes it)', security: [{ bearer: [] }], response: errorResponses },
  }, async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (!token || !isApiToken(token)) throw invalidToken();
    await tokens.logout(await tokens.authenticate(token));
    return { status: 'success' };
  });
}
