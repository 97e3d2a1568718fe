// Which URLs a board may load into an image, a video or a web page (SPEC §3 component types): an
// https: URL, or a path of this site (`/…`). Nothing else — javascript:, data:, blob:, http:,
// protocol-relative `//host`, a backslash (browsers read `/\host` as `//host`), white space or
// control characters (the URL parser drops tabs and newlines, so `/\t/host` would be `//host`).
// The schema's `pattern` (the server's 400, the browser's form) and the renderers use this one rule.

export const MEDIA_URL_MAX_LENGTH = 2000;

/** No white space, no control character, no backslash, anywhere. */
const SAFE_CHARACTERS = String.raw`[^\s\\\u0000-\u001F\u007F]`;

/** https://host[:port] then a path, query or fragment; or /path that is not //path. Host: letters, digits, dots, hyphens (no user info). */
export const MEDIA_URL_PATTERN = String.raw`^(?:https://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:[/?#]${SAFE_CHARACTERS}*)?|/(?![/\\])${SAFE_CHARACTERS}*)$`;

const mediaUrlExpression = new RegExp(MEDIA_URL_PATTERN, 'u');

/** The JSON Schema of such a URL. */
export const mediaUrlSchema = {
  type: 'string',
  minLength: 1,
  maxLength: MEDIA_URL_MAX_LENGTH,
  pattern: MEDIA_URL_PATTERN,
  'x-errors': { pattern: 'URL_NOT_ALLOWED' },
} as const;

/** Whether a board may load this URL. */
export function isAllowedMediaUrl(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MEDIA_URL_MAX_LENGTH && mediaUrlExpression.test(value);
}

/** The origin an allowed URL loads from: its own for https:, the site's for a path. */
export function mediaUrlOrigin(url: string, siteOrigin: string): string {
  return url.startsWith('/') ? siteOrigin : new URL(url).origin;
}
