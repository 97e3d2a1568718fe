// POST /client-errors (docs/api.md "Browser errors"): the web app's sampled error reports, written
// to the server log at warn level. Open before sign-in (the sign-in page fails too), so it is
// bounded per address and in size, keeps nothing of who sent it but in the log's request line, and
// logs each text scrubbed of addresses, tokens and numbers whoever wrote it.
import type { FastifyInstance } from 'fastify';
import { CLIENT_ERROR_REPORTS_PER_ADDRESS, clientErrorSchema, scrubbedReport, type ClientError } from '../../src/schemas/clientError.ts';
import { requestRateLimiter } from '../auth/tokenRateLimit.ts';
import { ApiError } from '../errors.ts';
import { TOO_MANY_READS } from '../services/readBudget.ts';
import { bodySchema, errorResponses } from './openapi.ts';

export function clientErrorRoutes(app: FastifyInstance) {
  const limiter = requestRateLimiter({ requests: CLIENT_ERROR_REPORTS_PER_ADDRESS, windowMs: 60_000 });
  app.post<{ Body: ClientError }>('/client-errors', {
    bodyLimit: 131_072,
    // before the body is read: a flood costs a counter
    onRequest: async (request) => {
      const waitMs = limiter.take(request.ip);
      if (!waitMs) return;
      const seconds = Math.ceil(waitMs / 1000);
      const error = new ApiError(429, 'TOO_MANY_REQUESTS', TOO_MANY_READS, undefined, { seconds });
      error.retryAfterSeconds = seconds;
      throw error;
    },
    schema: {
      tags: ['monitoring'], summary: 'Reports an error of the web app (sampled; no personal data)',
      body: bodySchema(clientErrorSchema), response: { ...errorResponses, 204: { type: 'null', description: 'Noted' } },
    },
  }, async (request, reply) => {
    // scrubbed again: anyone may post here, not only our web app
    request.log.warn({ clientError: scrubbedReport(request.body) }, 'browser error');
    return reply.status(204).send();
  });
}
