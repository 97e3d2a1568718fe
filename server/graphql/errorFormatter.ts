// GraphQL errors in the same terms as REST (docs/api.md "Errors"): an ApiError keeps its status,
// code and field; a client error Fastify already classified (bad JSON, body too large, wrong
// content type) keeps its status and code, as REST answers it; a malformed document is a 400 with
// graphql-js's own (shortened) message; any other failure is logged with the request id and
// answered with the generic text only — never SQL, parameters, stacks or paths.
import type { FastifyBaseLogger } from 'fastify';
import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import type { MercuriusContext } from 'mercurius';
import { classifiedClientError } from '../api/httpErrors.ts';
import { isDatabaseUnavailable } from '../db/databaseErrors.ts';
import { ApiError, GENERIC_ERROR } from '../errors.ts';

/** graphql-js messages may quote the client's input; keep them short. */
const MAX_MESSAGE = 300;
const shorten = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text);

type FormattedError = GraphQLFormattedError & { extensions: Record<string, unknown> };

/** Each error in the documented shape, and the HTTP status the first one calls for. */
export function formatGraphqlErrors(errors: readonly GraphQLError[], log: FastifyBaseLogger, requestId?: string) {
  const statuses: number[] = [];

  const format = (error: GraphQLError): FormattedError[] => {
    const original = error.originalError as (Error & { errors?: GraphQLError[]; statusCode?: number }) | undefined;
    const where = { ...(error.locations ? { locations: error.locations } : {}), ...(error.path ? { path: error.path } : {}) };
    if (original instanceof ApiError) {
      statuses.push(original.statusCode);
      const [first] = original.items;
      return [{ message: first.message, ...where, extensions: { code: first.code, ...(first.field ? { field: first.field } : {}), ...(first.params ? { params: first.params } : {}) } }];
    }
    if (Array.isArray(original?.errors)) return original.errors.flatMap(format); // mercurius' MER_ERR_GQL_VALIDATION
    const classified = original && classifiedClientError(original);
    if (classified) {
      statuses.push(classified.status);
      return [{ message: shorten(classified.message), ...where, extensions: { code: classified.code } }];
    }
    if (!original || original.name === 'GraphQLError') {
      // The document or its variables do not fit the schema (syntax, unknown field, bad scalar).
      statuses.push(400);
      return [{ message: shorten(error.message), ...where, extensions: { code: 'GRAPHQL_VALIDATION' } }];
    }
    const unavailable = isDatabaseUnavailable(original);
    statuses.push(unavailable ? 503 : 500);
    log.error({ err: original, reqId: requestId }, 'GraphQL resolver failed');
    return [{ message: GENERIC_ERROR, ...where, extensions: { code: unavailable ? 'UNAVAILABLE' : 'INTERNAL', request_id: requestId } }];
  };

  const formatted = errors.flatMap(format);
  // a refusal that says when to try again (429, 503) says it in the header too, as REST does
  const retryAfter = errors.map((error) => error.originalError).find((original) => original instanceof ApiError && original.retryAfterSeconds) as ApiError | undefined;
  return { status: statuses[0] as number | undefined, errors: formatted, retryAfterSeconds: retryAfter?.retryAfterSeconds };
}

export function graphqlErrorFormatter(execution: ExecutionResult & { statusCode?: number }, context: MercuriusContext) {
  const request = context.reply?.request;
  const { status, errors, retryAfterSeconds } = formatGraphqlErrors(execution.errors ?? [], request?.log ?? context.app.log, request?.id);
  const statusCode = execution.data ? 200 : (status ?? execution.statusCode ?? 200);
  if (retryAfterSeconds) context.reply?.header('retry-after', retryAfterSeconds);
  return { statusCode, response: { data: execution.data ?? null, errors } };
}
