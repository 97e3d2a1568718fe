// Turns every error into the documented body (docs/api.md "Errors"): validation → 400 with a
// short list of what is wrong, ApiError → its own status, other client errors → their status,
// an unavailable database → 503, anything else → 500. 5xx answers carry the generic text, a code
// and the request id; the detail (SQL, stack) goes only to the server log under that id.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NO_NUL } from '../../src/schemas/bounds.ts';
import { ERROR_CODES_KEYWORD } from '../../src/schemas/validation.ts';
import { isDatabaseUnavailable } from '../db/databaseErrors.ts';
import { ApiError, GENERIC_ERROR, type ErrorItem } from '../errors.ts';

export interface ValidationIssue {
  instancePath: string;
  keyword?: string;
  message?: string;
  params: Record<string, unknown>;
  parentSchema?: Record<string, unknown>;
}

/** At most this many entries per answer, however much is wrong. */
export const MAX_VALIDATION_ITEMS = 10;
/** Seconds a client should wait before retrying a 503. */
const RETRY_AFTER_SECONDS = 5;

function fieldOf(issue: ValidationIssue, context: string): string {
  const path = issue.instancePath.split('/').filter(Boolean);
  const extra = issue.params.missingProperty ?? issue.params.additionalProperty;
  if (typeof extra === 'string') path.push(extra);
  return path.join('.') || context;
}

/** Bounds of numbers in the words of SPEC §5, with codes clients translate. */
const NUMBER_BOUNDS: Record<string, { code: string; message: (field: string, limit: unknown) => string }> = {
  maximum: { code: 'NUMBER_MAX', message: (field, limit) => `The ${field} field must be ${limit} or less` },
  minimum: { code: 'NUMBER_MIN', message: (field, limit) => `The ${field} field must be ${limit} or more` },
};

/** English texts of codes the schemas name (x-errors) where SPEC gives the words. */
const CODE_MESSAGES: Record<string, (limit: unknown) => string> = {
  PROFILE_TOO_MANY_INTERVALS: (limit) => `It is not possible to create more than ${limit} intervals.`,
};

/** The last segment of a field path (`input.definition.interval` → `interval`), as a person names it. */
const shortName = (field: string) => field.slice(field.lastIndexOf('.') + 1);

function describe(issue: ValidationIssue, field: string): string {
  const coded = CODE_MESSAGES[codeOf(issue)];
  if (coded) return coded(issue.params.limit);
  const bound = issue.keyword ? NUMBER_BOUNDS[issue.keyword] : undefined;
  if (bound) return bound.message(shortName(field), issue.params.limit);
  if (issue.params.additionalProperty !== undefined) return `${field} is not allowed`;
  if (issue.params.missingProperty !== undefined) return `${field} is required`;
  if (issue.keyword === 'pattern' && issue.params.pattern === NO_NUL) return `${field} must not contain NUL characters`;
  return `${field} ${issue.message ?? 'is invalid'}`;
}

/** The error code a schema names for the failed keyword (`x-errors`), else VALIDATION. */
function codeOf(issue: ValidationIssue): string {
  const codes = issue.parentSchema?.[ERROR_CODES_KEYWORD] as Record<string, string> | undefined;
  return (issue.keyword && (codes?.[issue.keyword] ?? NUMBER_BOUNDS[issue.keyword]?.code)) || 'VALIDATION';
}

/** Scalar params of the failed keyword (`limit`, `pattern`…), for translated messages. */
function paramsOf(issue: ValidationIssue): ErrorItem['params'] {
  const scalars = Object.entries(issue.params).filter(([, v]) => typeof v === 'string' || typeof v === 'number');
  return scalars.length ? Object.fromEntries(scalars) as ErrorItem['params'] : undefined;
}

export function validationItems(issues: readonly ValidationIssue[], context: string): ErrorItem[] {
  return issues.slice(0, MAX_VALIDATION_ITEMS).map((issue) => {
    const field = fieldOf(issue, context);
    const code = codeOf(issue);
    const params = code === 'VALIDATION' ? undefined : paramsOf(issue);
    return { code, field, message: describe(issue, field), ...(params ? { params } : {}) };
  });
}

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
