// A file's type from its own first bytes, never from its name or the type a client declares: the
// images (overlay, board) and videos (board) accepted anywhere. An SVG or HTML file passes none:
// either could carry script.

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';
export type VideoType = 'video/mp4' | 'video/webm';

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/** PNG, JPEG or WebP by signature, or undefined for anything else. */
export function imageTypeOf(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

/** MP4 (an ISO media file: its first box is `ftyp`) or WebM (an EBML document), or undefined. */
export function videoTypeOf(bytes: Uint8Array): VideoType | undefined {
  if (startsWith(bytes, ascii('ftyp'), 4)) return 'video/mp4';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  return undefined;
}
