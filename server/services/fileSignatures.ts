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

/** Brands of an MP4 a browser plays (ISO base media, MPEG-4, H.264, DASH). */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso8', 'iso9', 'mp41', 'mp42', 'mp71', 'avc1', 'dash', 'M4V ', 'mmp4', 'msnv', 'ndas']);
/** The largest first box we read: its header, major brand, minor version and up to 60 compatible brands. */
const MAX_FTYP_BYTES = 256;

/**
 * Whether the file starts with a well-formed `ftyp` box naming an MP4 brand: its size (big-endian,
 * bytes 0–3) covers the header, a major brand, a minor version and whole compatible brands, fits the
 * file, and the major brand or one of the compatible ones is an MP4's. `<!--ftyp--><html>` is not.
 */
function isMp4(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || !startsWith(bytes, ascii('ftyp'), 4)) return false;
  const size = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  if (size < 16 || size > MAX_FTYP_BYTES || size > bytes.length || (size - 16) % 4 !== 0) return false;
  const brandAt = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  const brands = [brandAt(8), ...Array.from({ length: (size - 16) / 4 }, (_, n) => brandAt(16 + n * 4))];
  return brands.some((brand) => MP4_BRANDS.has(brand));
}

/** MP4 (an ISO media file: its first box a well-formed `ftyp` of an MP4 brand) or WebM (an EBML document), or undefined. */
export function videoTypeOf(bytes: Uint8Array): VideoType | undefined {
  if (isMp4(bytes)) return 'video/mp4';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  return undefined;
}
