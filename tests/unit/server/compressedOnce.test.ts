// Large answers asked alike are compressed once (server/api/compressedOnce.ts): every client gets
// the encoding it takes and bytes that decode to its own answer; the same text is compressed once
// while kept, a different one never gets another's bytes, and what is kept is bounded.
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, gunzipSync, gzip } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPRESSED_ONCE_MIN_CHARS, compressLargeAnswersOnce, type Compressor } from '../../../server/api/compressedOnce.ts';
import { BROTLI_OPTIONS, installCompression } from '../../../server/api/webApp.ts';

/** A JSON answer of about `chars` characters that does not compress much (so a few fill the bound). */
const bigAnswer = (chars: number) => JSON.stringify({ data: randomBytes(Math.ceil(chars * 0.75)).toString('base64') });

let app: FastifyInstance;
let compressed: string[]; // the encodings compressed with, in order
let failing = false;
const answers = new Map<string, string>();

const counting: Compressor = async (encoding, text) => {
  compressed.push(encoding);
  if (failing) throw new Error('out of memory');
  return encoding === 'br' ? promisify(brotliCompress)(text, BROTLI_OPTIONS) : promisify(gzip)(text);
};

async function build(maxBytes?: number) {
  app = Fastify();
  compressLargeAnswersOnce(app, { compress: counting, maxBytes });
  await installCompression(app);
  app.get<{ Params: { name: string } }>('/answer/:name', async (request, reply) => reply.type('application/json; charset=utf-8').header('vary', 'origin').send(answers.get(request.params.name)));
  await app.ready();
}

const ask = (name: string, acceptEncoding?: string) =>
  app.inject({ method: 'GET', url: `/answer/${name}`, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

const decoded = (response: Awaited<ReturnType<typeof ask>>) => {
  const encoding = response.headers['content-encoding'];
  const body = response.rawPayload;
  return (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body).toString('utf8');
};

beforeEach(() => {
  compressed = [];
  failing = false;
  answers.clear();
  answers.set('board', bigAnswer(COMPRESSED_ONCE_MIN_CHARS + 1_000));
  answers.set('other', bigAnswer(COMPRESSED_ONCE_MIN_CHARS + 1_000));
  answers.set('small', JSON.stringify({ data: 'x'.repeat(5_000) }));
});
afterEach(() => app.close());

describe('large answers compressed once', () => {
  it('compresses the same answer once per encoding, each client getting what it takes and its own answer', async () => {
    await build();
    for (let reader = 0; reader < 3; reader++) {
      const response = await ask('board', 'gzip, deflate');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers.vary).toBe('origin, accept-encoding'); // what the route said is kept
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(decoded(response)).toBe(answers.get('board'));
    }
    const browser = await ask('board', 'gzip, deflate, br');
    expect(browser.headers['content-encoding']).toBe('br');
    expect(decoded(browser)).toBe(answers.get('board'));
    expect(compressed).toEqual(['gzip', 'br']);
  });

  it('never sends one answer the bytes of another, and compresses again once the text changes', async () => {
    await build();
    await ask('board', 'gzip');
    const other = await ask('other', 'gzip');
    expect(decoded(other)).toBe(answers.get('other'));
    answers.set('board', bigAnswer(COMPRESSED_ONCE_MIN_CHARS + 2_000)); // its data changed
    expect(decoded(await ask('board', 'gzip'))).toBe(answers.get('board'));
    expect(compressed).toEqual(['gzip', 'gzip', 'gzip']);
  });

  it('leaves small answers and clients that take no compression to the usual way', async () => {
    await build();
    const small = await ask('small', 'gzip');
    expect(small.headers['content-encoding']).toBe('gzip'); // @fastify/compress, per answer
    expect(decoded(small)).toBe(answers.get('small'));
    const plain = await ask('board');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(answers.get('board'));
    expect(compressed).toEqual([]);
  });

  it('answers whole when compressing fails, and keeps no more than its bound', async () => {
    await build(COMPRESSED_ONCE_MIN_CHARS); // room for about one
    failing = true;
    expect(decoded(await ask('board', 'gzip'))).toBe(answers.get('board'));
    failing = false;
    await ask('board', 'gzip'); // the failure was not kept
    await ask('other', 'gzip'); // the board's bytes make way
    await ask('board', 'gzip');
    expect(compressed).toEqual(['gzip', 'gzip', 'gzip', 'gzip']);
  });
});
