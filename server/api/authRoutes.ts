// POST /auth/login, /auth/refresh, /auth/logout.
import type { FastifyInstance } from 'fastify';
import { loginSchema, logoutSchema, refreshSchema, tokenPairSchema, type LoginBody, type LogoutBody, type RefreshBody } from '../../src/schemas/auth.ts';
import type { AuthService } from '../services/authService.ts';
import type { ApiError } from '../errors.ts';
import { bearerToken } from './authenticate.ts';
import { isMalformedRequest, replyWithError } from './httpErrors.ts';
import { bodySchema, errorResponses } from './openapi.ts';

export function authRoutes(app: FastifyInstance, auth: AuthService) {
  const tags = ['auth'];
  app.post<{ Body: LoginBody }>('/auth/login', {
    schema: { tags, summary: 'Sign in', body: bodySchema(loginSchema), response: { 200: tokenPairSchema, ...errorResponses } },
    // Malformed sign-ins (bad JSON, NUL, missing fields) count against the throttle like wrong passwords.
    errorHandler: async (error, request, reply) => {
      if (isMalformedRequest(error)) {
        try {
          await auth.countMalformedLogin(request.body, request.ip);
        } catch (throttled) {
          return replyWithError(throttled as ApiError, request, reply);
        }
      }
      return replyWithError(error, request, reply);
    },
  }, (request) => auth.login(request.body.email, request.body.password, request.ip));

  app.post<{ Body: RefreshBody }>('/auth/refresh', {
    schema: { tags, summary: 'Rotate the refresh token', body: bodySchema(refreshSchema), response: { 200: tokenPairSchema, ...errorResponses } },
  }, (request) => auth.refresh(request.body.refresh_token));

  app.post<{ Body: LogoutBody }>('/auth/logout', {
    schema: { tags, summary: 'Sign out (revokes the session)', body: bodySchema(logoutSchema) },
  }, async (request) => {
    const token = bearerToken(request.headers.authorization);
    const caller = token ? await auth.authenticate(token).catch(() => undefined) : undefined;
    await auth.logout(request.body?.refresh_token, caller);
    return { status: 'success' };
  });
}
