// Files of boards' image and video components (docs/api.md "Board media"): POST the file's bytes
// (PNG, JPEG or WebP up to 5 MB, MP4 or WebM up to 20 MB), answered with the address a
// component's definition.url takes; GET them back. Registered in its own scope so that the raw
// body parser and its size limit apply to these routes only.
import type { FastifyInstance } from 'fastify';
import {
  BOARD_IMAGE_TYPES, BOARD_MEDIA_SIZE_MESSAGE, BOARD_MEDIA_TYPE_MESSAGE, BOARD_VIDEO_MAX_BYTES, BOARD_VIDEO_TYPES, boardMediaParamSchema, type BoardMediaParam,
} from '../../src/schemas/boardMedia.ts';
import { ApiError } from '../errors.ts';
import { authorizeBoardMediaRead, authorizeBoardMediaUpload, type BoardMediaService } from '../services/boardMediaService.ts';
import { callerFrom } from './authenticate.ts';
import { bodySchema, errorResponses } from './openapi.ts';
import { checkAccessFirst } from './routeAccess.ts';

const TYPES = [...BOARD_IMAGE_TYPES, ...BOARD_VIDEO_TYPES];

export async function boardMediaRoutes(app: FastifyInstance, media: BoardMediaService) {
  await app.register(async (scope) => {
    scope.addContentTypeParser([...TYPES, 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: BOARD_VIDEO_MAX_BYTES },
      (_request, body, done) => done(null, body));
    // the limits in the product's words (Fastify's own text otherwise)
    scope.setErrorHandler((error: { code?: string }) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new ApiError(413, 'BOARD_MEDIA_SIZE', BOARD_MEDIA_SIZE_MESSAGE);
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
        throw new ApiError(415, 'BOARD_MEDIA_TYPE', BOARD_MEDIA_TYPE_MESSAGE);
      }
      throw error;
    });

    scope.post<{ Body: Buffer }>('/board-media', {
      onRequest: checkAccessFirst(authorizeBoardMediaUpload),
      schema: {
        tags: ['boards'], security: [{ bearer: [] }], consumes: TYPES, response: errorResponses,
        summary: 'Upload a file for an image or video component (PNG, JPEG or WebP up to 5 MB; MP4 or WebM up to 20 MB); put the answer\'s url in the component\'s definition.url',
      },
    }, async (request) => {
      const body = request.body as unknown;
      if (!(body instanceof Buffer) || body.length === 0) throw new ApiError(415, 'BOARD_MEDIA_TYPE', BOARD_MEDIA_TYPE_MESSAGE);
      return media.upload(callerFrom(request), body);
    });

    scope.get<{ Params: BoardMediaParam }>('/board-media/:id', {
      onRequest: checkAccessFirst(authorizeBoardMediaRead),
      schema: {
        tags: ['boards'], security: [{ bearer: [] }], params: bodySchema(boardMediaParamSchema), response: errorResponses,
        summary: 'A board\'s image or video file, for those who see a board showing it (and its uploader)',
      },
    }, async (request, reply) => {
      const file = await media.get(callerFrom(request), request.params.id);
      // not kept by the browser: a share revoked is a file no longer seen
      return reply.type(file.content_type).header('cache-control', 'private, no-store').send(Buffer.from(file.bytes));
    });
  });
}
