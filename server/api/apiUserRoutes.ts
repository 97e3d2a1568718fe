// POST /api/users: a tenant's new API user, answered with its first token (shown only here).
import type { FastifyInstance } from 'fastify';
import { apiUserSchema, createApiUserSchema, issuedTokenSchema, type CreateApiUserBody } from '../../src/schemas/apiUser.ts';
import { recordSchema, type ModelSchema } from '../../src/schemas/model.ts';
import type { ApiUserService } from '../services/apiUserService.ts';
import { callerFrom } from './authenticate.ts';
import { bodySchema, errorResponses } from './openapi.ts';
import { checkAccessFirst } from './routeAccess.ts';

const record = recordSchema(apiUserSchema as unknown as ModelSchema);

/** The API user with its tenant (the sign-in names it) and its first token. */
const createdSchema = {
  type: 'object',
  properties: { ...record.properties, tenant_id: { type: 'string' }, ...issuedTokenSchema.properties },
} as const;

export function apiUserRoutes(app: FastifyInstance, apiUsers: ApiUserService) {
  app.post<{ Body: CreateApiUserBody }>(apiUserSchema['x-api'].rest.create, {
    onRequest: checkAccessFirst((caller) => apiUsers.authorize(caller, 'create')),
    schema: {
      tags: ['api-users'], summary: 'Create an API user (its first token is in the answer, and only there)', security: [{ bearer: [] }],
      body: bodySchema(createApiUserSchema), response: { 200: createdSchema, ...errorResponses },
    },
  }, (request) => apiUsers.create(callerFrom(request), request.body));
}
