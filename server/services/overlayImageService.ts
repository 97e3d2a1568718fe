// A region's floor-plan image (SPEC §5 image overlay: one file). Anyone of the tenant who may read
// entities sees it; changing it needs the studio, as any entity change does. The file's own first
// bytes decide its type (fileSignatures.ts): PNG, JPEG and WebP only.
import {
  OVERLAY_IMAGE_TYPE_MESSAGE, OVERLAY_NOT_A_REGION_MESSAGE, overlayImagePath,
} from '../../src/schemas/overlay.ts';
import { entitySchema } from '../../src/schemas/entity.ts';
import type { ModelSchema } from '../../src/schemas/model.ts';
import type { Database } from '../db/database.ts';
import { imageTypeOf } from './fileSignatures.ts';
import { deleteImage, entityKindOf, findImage, storeImage, type StoredImage } from '../db/entityImageQueries.ts';
import { logUserChange } from '../db/logQueries.ts';
import type { Tx } from '../db/database.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { authorize } from '../resources/resourceAccess.ts';
import type { Caller } from '../auth/caller.ts';
import { ENTITY_NOT_FOUND } from '../resources/rules/entityRules.ts';

const model = entitySchema as unknown as ModelSchema;

/** Seeing a region's image: the entity model's read rule. */
export const authorizeOverlayRead = (caller: Caller) => authorize(caller, model, 'read');
/** Uploading or removing it: the entity model's update rule. */
export const authorizeOverlayChange = (caller: Caller) => authorize(caller, model, 'update');

async function requireRegion(tx: Tx, id: number) {
  const kind = await entityKindOf(tx, id);
  if (!kind) throw notFound(ENTITY_NOT_FOUND);
  if (kind.systemName !== 'region') throw badRequest('OVERLAY_NOT_A_REGION', OVERLAY_NOT_A_REGION_MESSAGE);
}

export function overlayImageService(db: Database) {
  return {
    /** Stores (or replaces) the region's image; answers the address the overlay refers to. */
    async put(caller: Caller, id: number, bytes: Uint8Array): Promise<{ url: string; content_type: string; size: number }> {
      authorizeOverlayChange(caller);
      const contentType = imageTypeOf(bytes);
      if (!contentType) throw new ApiError(415, 'OVERLAY_IMAGE_TYPE', OVERLAY_IMAGE_TYPE_MESSAGE);
      const version = await db.tenantTx(caller.tenantId, async (tx) => {
        await requireRegion(tx, id);
        const stored = await storeImage(tx, caller.tenantId, id, contentType, bytes);
        await logUserChange(tx, caller, id, 'Image overlay uploaded', { content_type: contentType, size: bytes.length });
        return stored;
      });
      return { url: overlayImagePath(id, version), content_type: contentType, size: bytes.length };
    },

    async get(caller: Caller, id: number): Promise<StoredImage> {
      authorizeOverlayRead(caller);
      const image = await db.tenantTx(caller.tenantId, (tx) => findImage(tx, id));
      if (!image) throw notFound('Image overlay not found');
      return image;
    },

    async remove(caller: Caller, id: number): Promise<{ deleted: boolean }> {
      authorizeOverlayChange(caller);
      return db.tenantTx(caller.tenantId, async (tx) => {
        await requireRegion(tx, id);
        const deleted = await deleteImage(tx, id);
        if (deleted) await logUserChange(tx, caller, id, 'Image overlay removed', {});
        return { deleted };
      });
    },
  };
}
export type OverlayImageService = ReturnType<typeof overlayImageService>;
