// POST /update-password.
import type { FastifyInstance } from 'fastify';
import { updatePasswordSchema, type UpdatePasswordBody } from '../../src/schemas/password.ts';
import type { passwordService } from '../services/passwordService.ts';
import { callerFrom } from './authenticate.ts';
import { bodySchema, errorResponses } from './openapi.ts';

export function profileRoutes(app: FastifyInstance, passwords: ReturnType<typeof passwordService>) {
  app.post<{ Body: UpdatePasswordBody }>('/update-password', {
    schema: { tags: ['users'], summary: 'Change the signed-in user\'s password', security: [{ bearer: [] }], body: bodySchema(updatePasswordSchema), response: errorResponses },
  }, async (request) => {
    await passwords.update(callerFrom(request), request.body.input);
    return { status: 'success', message: 'success' };
  });
}
