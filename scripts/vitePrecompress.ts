// A Vite plugin: after the build, writes `.br` and `.gz` beside every compressible file of the
// output, however small, for the server to send as they are (@fastify/static `preCompressed`):
// each file is compressed once here and never again per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Writes the brotli and gzip copies of every compressible file under `dir`. */
export function precompressDirectory(dir: string) {
  for (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path)) continue;
    const content = readFileSync(path);
    writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  }
}

export function precompress(outDir = 'dist'): Plugin {
  return {
    name: 'terrasight-precompress',
    apply: 'build',
    closeBundle() {
      precompressDirectory(outDir);
    },
  };
}
