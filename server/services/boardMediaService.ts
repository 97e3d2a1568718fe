// Files of boards' image and video components (src/schemas/boardMedia.ts). Uploading needs the
// permission to change components of either board kind; reading needs to see a board of a kind
// the caller's modules open that shows the file (or to have uploaded it). The file's own first
// bytes decide its type (fileSignatures.ts); the tenant's files together are bounded.
import {
  BOARD_MEDIA_QUOTA_MESSAGE, BOARD_MEDIA_SIZE_MESSAGE, BOARD_MEDIA_TENANT_MAX_BYTES, BOARD_MEDIA_TYPE_MESSAGE, boardMediaMaxBytes, boardMediaPath,
  type StoredBoardMedia,
} from '../../src/schemas/boardMedia.ts';
import { componentSchema } from '../../src/schemas/component.ts';
import type { BoardKindName } from '../../src/schemas/enums.ts';
import type { Action, ModelSchema } from '../../src/schemas/model.ts';
import { publicApiComponentSchema } from '../../src/schemas/publicApiComponent.ts';
import { dropUnusedMedia, findReadableMedia, storeMedia, type StoredMedia } from '../db/boardMediaQueries.ts';
import type { Database } from '../db/database.ts';
import { ApiError, notFound } from '../errors.ts';
import { authorize } from '../resources/resourceAccess.ts';
import type { Caller } from '../auth/caller.ts';
import { imageTypeOf, videoTypeOf } from './fileSignatures.ts';

/** The board kinds and the component model whose access rules open them. */
const KINDS: [kind: BoardKindName, schema: ModelSchema][] = [
  ['performance', componentSchema as unknown as ModelSchema],
  ['public_api', publicApiComponentSchema as unknown as ModelSchema],
];

/** The board kinds whose components the caller may `action`; refused (the first kind's reason) when none. */
function kindsAllowed(caller: Caller, action: Action): string[] {
  const refusals: unknown[] = [];
  const kinds = KINDS.filter(([, schema]) => {
    try {
      authorize(caller, schema, action);
      return true;
    } catch (error) {
      refusals.push(error);
      return false;
    }
  }).map(([kind]) => kind);
  if (!kinds.length) throw refusals[0];
  return kinds;
}

export const authorizeBoardMediaUpload = (caller: Caller) => void kindsAllowed(caller, 'create');
export const authorizeBoardMediaRead = (caller: Caller) => void kindsAllowed(caller, 'read');

export const BOARD_MEDIA_NOT_FOUND = 'Board file not found';

export function boardMediaService(db: Database) {
  return {
    async upload(caller: Caller, bytes: Uint8Array): Promise<StoredBoardMedia> {
      authorizeBoardMediaUpload(caller);
      const contentType = imageTypeOf(bytes) ?? videoTypeOf(bytes);
      if (!contentType) throw new ApiError(415, 'BOARD_MEDIA_TYPE', BOARD_MEDIA_TYPE_MESSAGE);
      const limit = boardMediaMaxBytes(contentType);
      if (bytes.length > limit) throw new ApiError(413, 'BOARD_MEDIA_SIZE', BOARD_MEDIA_SIZE_MESSAGE, undefined, { limit });
      const id = await db.tenantTx(caller.tenantId, async (tx) => {
        const taken = await dropUnusedMedia(tx);
        if (taken + bytes.length > BOARD_MEDIA_TENANT_MAX_BYTES) {
          throw new ApiError(413, 'BOARD_MEDIA_QUOTA', BOARD_MEDIA_QUOTA_MESSAGE, undefined, { limit: BOARD_MEDIA_TENANT_MAX_BYTES });
        }
        return storeMedia(tx, caller.tenantId, caller.userId, contentType, bytes);
      });
      return { url: boardMediaPath(id), content_type: contentType, size: bytes.length };
    },

    async get(caller: Caller, id: string): Promise<StoredMedia> {
      const kinds = kindsAllowed(caller, 'read');
      const media = await db.tenantTx(caller.tenantId, (tx) => findReadableMedia(tx, id, caller.userId, kinds));
      if (!media) throw notFound(BOARD_MEDIA_NOT_FOUND);
      return media;
    },
  };
}
export type BoardMediaService = ReturnType<typeof boardMediaService>;
