// Turns every error into the documented body (docs/api.md "Errors"): validation → 400 with a
// short list of what is wrong, ApiError → its own status, other client errors → their status,
// an unavailable database → 503, anything else → 500. 5xx answers carry the generic text, a code
// and the request id; the detail (SQL, stack) goes only to the server log under that id.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/databaseErrors.ts';
import { ApiError, GENERIC_ERROR } from '../errors.ts';
import { validationItems, type ValidationIssue } from '../validationItems.ts';

/** Seconds a client should wait before retrying a 503. */
const RETRY_AFTER_SECONDS = 5;

/** The body of a 5xx answer: the generic §8 text, a code and the request id, nothing more. */
export const serverErrorBody = (code: 'INTERNAL' | 'UNAVAILABLE', requestId: string) =>
  ({ error: GENERIC_ERROR, errors: [{ code, message: GENERIC_ERROR }], request_id: requestId });

/** The database cannot serve now (full disk, lost connection): 503, try again shortly. */
export const sendUnavailable = (request: FastifyRequest, reply: FastifyReply) =>
  reply.status(503).header('retry-after', RETRY_AFTER_SECONDS).send(serverErrorBody('UNAVAILABLE', request.id));

/** Logs an unexpected error with its request id and answers the generic 500 or 503. */
export function sendServerError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error, reqId: request.id }, 'database unavailable');
    return sendUnavailable(request, reply);
  }
  request.log.error({ err: error, reqId: request.id }, 'request failed');
  return reply.status(500).send(serverErrorBody('INTERNAL', request.id));
}

/** Answers any error in the documented shape (the app's error handler; routes may wrap it). */
export function replyWithError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    if (error.retryAfterSeconds) reply.header('retry-after', error.retryAfterSeconds);
    return reply.status(error.statusCode).send(error.body);
  }
  if (error.validation) {
    return reply.status(400).send({ errors: validationItems(error.validation as ValidationIssue[], error.validationContext ?? 'body') });
  }
  const classified = classifiedClientError(error);
  if (classified) return reply.status(classified.status).send({ errors: [{ code: classified.code, message: classified.message }] });
  return sendServerError(error, request, reply);
}

/**
 * A client error Fastify (or a plugin) has already classified with a 4xx status: bad JSON, body
 * too large, wrong content type. Its message describes the request, never the server.
 */
export function classifiedClientError(error: { statusCode?: unknown; code?: unknown; message: string }) {
  const status = error.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  return { status, code: typeof error.code === 'string' ? error.code : 'BAD_REQUEST', message: error.message };
}

/** Whether the client's request itself was at fault (not an ApiError, not the server). */
export const isMalformedRequest = (error: FastifyError | ApiError) =>
  !(error instanceof ApiError) && (!!error.validation || classifiedClientError(error) !== undefined);

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(replyWithError);
}
