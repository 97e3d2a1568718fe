// A Vite plugin: after the build, writes `.br` and `.gz` beside every compressible file of the
// output, however small, for the server to send as they are (@fastify/static `preCompressed`):
// each file is compressed once here and never again per request. Files of earlier builds kept in
// the output (scripts/viteWebAppBuild.ts) already have theirs.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

/** Whether both compressed copies of `path` exist and are as new as it. */
const compressedAlready = (path: string) => {
  const changed = statSync(path).mtimeMs;
  return [`${path}.br`, `${path}.gz`].every((copy) => existsSync(copy) && statSync(copy).mtimeMs >= changed);
};

/** Writes the brotli and gzip copies of every compressible file under `dir` that lacks them. */
export function precompressDirectory(dir: string) {
  for (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path) || compressedAlready(path)) continue;
    const content = readFileSync(path);
    writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  }
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'terrasight-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true, // after the service worker is written
      handler() {
        precompressDirectory(outDir);
      },
    },
  };
}
