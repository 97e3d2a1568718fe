// A large answer that many clients ask alike is compressed once. A public-API board of fifty KPI
// components answers 1.5 MB of the same JSON to each of its two hundred API readers within a
// refresh interval, and gzip took ~32 ms of a core for each of them. The compressed bytes of such
// an answer are kept by the hash of its text, so only an answer with the very same text is sent
// them; the rest is compressed per answer as before (@fastify/compress, in installCompression).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';
import { BROTLI_OPTIONS, COMPRESSED_ENCODINGS } from './webApp.ts';

/** Answers of at least this many characters are looked up (below it, compressing costs less than keeping). */
export const COMPRESSED_ONCE_MIN_CHARS = 256 * 1024;
/** Compressed answers kept, at most (bytes; the oldest go first). */
export const COMPRESSED_ONCE_MAX_BYTES = 32 * 1024 * 1024;

type Encoding = (typeof COMPRESSED_ENCODINGS)[number];
export type Compressor = (encoding: Encoding, text: string) => Promise<Buffer>;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const compressText: Compressor = (encoding, text) => (encoding === 'br' ? brotli(text, BROTLI_OPTIONS) : gzipped(text));

export interface CompressedOnceOptions {
  compress?: Compressor;
  maxBytes?: number;
}

/** Registered before compression, after the bound on answer sizes. */
export function compressLargeAnswersOnce(app: FastifyInstance, { compress = compressText, maxBytes = COMPRESSED_ONCE_MAX_BYTES }: CompressedOnceOptions = {}) {
  /** By encoding and hash of the text: the compressed bytes (while being made, their promise), most recently used last. */
  const kept = new Map<string, { body: Promise<Buffer>; bytes: number }>();
  let keptBytes = 0;

  const keep = (key: string, body: Promise<Buffer>) => {
    const entry = { body, bytes: 0 };
    kept.set(key, entry);
    body.then((buffer) => {
      if (kept.get(key) !== entry) return;
      entry.bytes = buffer.length;
      keptBytes += buffer.length;
      for (const [oldest, { bytes }] of kept) {
        if (keptBytes <= maxBytes) break;
        kept.delete(oldest);
        keptBytes -= bytes;
      }
    }, () => { if (kept.get(key) === entry) kept.delete(key); });
  };

  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || payload.length < COMPRESSED_ONCE_MIN_CHARS || reply.statusCode !== 200) return payload;
    if (reply.hasHeader('content-encoding') || request.headers['x-no-compression'] !== undefined) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    // the encoding @fastify/compress would choose (x-gzip and * read as gzip, as it does)
    const accepted = request.headers['accept-encoding']?.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
    const encoding = accepted ? negotiate(accepted, [...COMPRESSED_ENCODINGS]) as Encoding | null : null;
    if (!encoding) return payload;
    const key = `${encoding}:${createHash('sha256').update(payload).digest('base64')}`;
    let entry = kept.get(key);
    if (entry) {
      kept.delete(key);
      kept.set(key, entry);
    } else {
      keep(key, compress(encoding, payload));
      entry = kept.get(key)!;
    }
    let body: Buffer;
    try {
      body = await entry.body;
    } catch {
      return payload; // compressed per answer, as any other
    }
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
    reply.header('content-encoding', encoding).header('content-length', body.length);
    return body;
  });
}
