// A region's overlay image (docs/api.md "Image overlay"): PUT the file's bytes (PNG, JPEG or
// WebP, at most 5 MB), GET them back, DELETE them. Registered in its own scope so that the raw
// image body parser and its size limit apply to these routes only.
import type { FastifyInstance } from 'fastify';
import { idParamSchema, type IdParam } from '../../src/schemas/entityQuery.ts';
import { OVERLAY_IMAGE_MAX_BYTES, OVERLAY_IMAGE_SIZE_MESSAGE, OVERLAY_IMAGE_TYPE_MESSAGE, OVERLAY_IMAGE_TYPES } from '../../src/schemas/overlay.ts';
import { ApiError } from '../errors.ts';
import { authorizeOverlayChange, authorizeOverlayRead, type OverlayImageService } from '../services/overlayImageService.ts';
import { callerFrom } from './authenticate.ts';
import { bodySchema, errorResponses } from './openapi.ts';
import { checkAccessFirst } from './routeAccess.ts';

const PATH = '/entity/:id/overlay-image';

export async function overlayImageRoutes(app: FastifyInstance, images: OverlayImageService) {
  await app.register(async (scope) => {
    scope.addContentTypeParser([...OVERLAY_IMAGE_TYPES, 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: OVERLAY_IMAGE_MAX_BYTES },
      (_request, body, done) => done(null, body));
    // the size limit in the product's words (Fastify's own text otherwise)
    scope.setErrorHandler((error: { code?: string; statusCode?: number }) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new ApiError(413, 'OVERLAY_IMAGE_SIZE', OVERLAY_IMAGE_SIZE_MESSAGE);
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
        throw new ApiError(415, 'OVERLAY_IMAGE_TYPE', OVERLAY_IMAGE_TYPE_MESSAGE);
      }
      throw error;
    });
    const schema = (summary: string, extra: object = {}) => ({
      tags: ['entities'], summary, security: [{ bearer: [] }], params: bodySchema(idParamSchema), response: errorResponses, ...extra,
    });

    scope.put<{ Params: IdParam; Body: Buffer }>(PATH, {
      onRequest: checkAccessFirst(authorizeOverlayChange),
      schema: schema('Upload a region\'s floor-plan image (PNG, JPEG or WebP, at most 5 MB), replacing the one before', {
        consumes: [...OVERLAY_IMAGE_TYPES],
      }),
    }, async (request) => {
      const body = request.body as unknown;
      if (!(body instanceof Buffer) || body.length === 0) throw new ApiError(415, 'OVERLAY_IMAGE_TYPE', OVERLAY_IMAGE_TYPE_MESSAGE);
      return images.put(callerFrom(request), request.params.id, body);
    });

    scope.get<{ Params: IdParam }>(PATH, { onRequest: checkAccessFirst(authorizeOverlayRead), schema: schema('A region\'s floor-plan image') }, async (request, reply) => {
      const image = await images.get(callerFrom(request), request.params.id);
      return reply.type(image.content_type).header('cache-control', 'private, max-age=31536000, immutable').send(Buffer.from(image.bytes));
    });

    scope.delete<{ Params: IdParam }>(PATH, { onRequest: checkAccessFirst(authorizeOverlayChange), schema: schema('Remove a region\'s floor-plan image') },
      (request) => images.remove(callerFrom(request), request.params.id));
  });
}
