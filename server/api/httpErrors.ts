// Turns every error into the documented body: validation → 400 with one entry per field,
// ApiError → its own status, other client errors → their status, anything else → 500
// with the generic message and no internals.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, GENERIC_ERROR, type ErrorItem } from '../errors.ts';

interface ValidationIssue { instancePath: string; message?: string; params: Record<string, unknown> }

function fieldOf(issue: ValidationIssue, context: string): string {
  const path = issue.instancePath.split('/').filter(Boolean);
  const extra = issue.params.missingProperty ?? issue.params.additionalProperty;
  if (typeof extra === 'string') path.push(extra);
  return path.join('.') || context;
}

export function validationItems(issues: ValidationIssue[], context: string): ErrorItem[] {
  return issues.map((issue) => {
    const field = fieldOf(issue, context);
    const message = issue.params.additionalProperty !== undefined
      ? `${field} is not allowed`
      : issue.params.missingProperty !== undefined ? `${field} is required` : `${field} ${issue.message ?? 'is invalid'}`;
    return { code: 'VALIDATION', field, message };
  });
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return reply.status(error.statusCode).send(error.body);
    if (error.validation) {
      return reply.status(400).send({ errors: validationItems(error.validation as ValidationIssue[], error.validationContext ?? 'body') });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ errors: [{ code: error.code ?? 'BAD_REQUEST', message: error.message }] });
    }
    request.log.error(error);
    return reply.status(500).send({ error: GENERIC_ERROR });
  });
}
