// A file a board's image or video component shows (SPEC §3 component types: "an uploaded file
// stored like the overlay image"): uploaded with POST /board-media, kept by the tenant, read back
// at its address /board-media/{uuid}, which the component's definition.url holds. Only those who
// see a board with such a component (and its uploader) may read it (docs/api.md "Board media").

export const BOARD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const BOARD_VIDEO_TYPES = ['video/mp4', 'video/webm'] as const;
export type BoardMediaType = typeof BOARD_IMAGE_TYPES[number] | typeof BOARD_VIDEO_TYPES[number];

export const BOARD_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const BOARD_VIDEO_MAX_BYTES = 20 * 1024 * 1024;
/** All of a tenant's board files together; files no component names are dropped after a day. */
export const BOARD_MEDIA_TENANT_MAX_BYTES = 200 * 1024 * 1024;

export const BOARD_MEDIA_TYPE_MESSAGE = 'A board file must be a PNG, JPEG or WebP image or an MP4 or WebM video.';
export const BOARD_MEDIA_SIZE_MESSAGE = 'A board image must be 5 MB or smaller, a video 20 MB or smaller.';
export const BOARD_MEDIA_QUOTA_MESSAGE = 'The board files of this organisation take 200 MB already: remove components with files first.';

const PREFIX = '/board-media/';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const PATH_EXPRESSION = new RegExp(`^${PREFIX}(${UUID})$`);

/** GET /board-media/{id}'s parameters. */
export const boardMediaParamSchema = {
  $id: 'board_media_param', type: 'object', additionalProperties: false, required: ['id'],
  properties: { id: { type: 'string', maxLength: 36, pattern: `^${UUID}$` } },
} as const;
export interface BoardMediaParam { id: string }

/** The address of a stored board file. */
export const boardMediaPath = (id: string) => `${PREFIX}${id}`;

/** The stored file's id when `url` is such an address (read with the session, not by the browser on its own). */
export const boardMediaIdOf = (url: unknown): string | undefined =>
  typeof url === 'string' ? PATH_EXPRESSION.exec(url)?.[1] : undefined;

/** The most a file of the type may weigh. */
export const boardMediaMaxBytes = (type: BoardMediaType) =>
  ((BOARD_VIDEO_TYPES as readonly string[]).includes(type) ? BOARD_VIDEO_MAX_BYTES : BOARD_IMAGE_MAX_BYTES);

/** The types a component of `componentType` may upload (none for the others). */
export const boardMediaTypesFor = (componentType: unknown): readonly BoardMediaType[] =>
  (componentType === 'image' ? BOARD_IMAGE_TYPES : componentType === 'video' ? BOARD_VIDEO_TYPES : []);

/** The answer to an upload. */
export interface StoredBoardMedia { url: string; content_type: BoardMediaType; size: number }
