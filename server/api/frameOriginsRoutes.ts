// PUT /tenant/iframe-origins (docs/api.md "Web page origins"): the tenant's list
// of origins whose pages boards frame with their scripts, replaced whole.
import type { FastifyInstance } from 'fastify';
import { frameOriginsSchema, type FrameOrigins } from '../../src/schemas/frameOrigins.ts';
import { authorizeFrameOrigins, type FrameOriginsService } from '../services/frameOriginsService.ts';
import { callerFrom } from './authenticate.ts';
import { bodySchema, errorResponses } from './openapi.ts';
import { checkAccessFirst } from './routeAccess.ts';

export function frameOriginsRoutes(app: FastifyInstance, frameOrigins: FrameOriginsService) {
  app.put<{ Body: FrameOrigins }>('/tenant/iframe-origins', {
    onRequest: checkAccessFirst(authorizeFrameOrigins),
    bodyLimit: 32_768,
    schema: {
      tags: ['boards'], security: [{ bearer: [] }],
      summary: 'Replaces the tenant\'s list of origins whose web pages boards show with their scripts (performance.board.*)',
      body: bodySchema(frameOriginsSchema), response: { ...errorResponses, 200: bodySchema(frameOriginsSchema) },
    },
  }, (request) => frameOrigins.replace(callerFrom(request), request.body));
}
