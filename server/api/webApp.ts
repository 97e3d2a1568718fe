// Serves the built web app: precompressed brotli/gzip files when the browser takes them, hashed
// bundles cached for good, everything else (index.html first) revalidated, and a history
// fallback that answers only HTML GETs. Dynamic answers (large JSON) are compressed on the fly;
// static files never are: the build compresses each one once (scripts/vitePrecompress.ts).
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { constants } from 'node:zlib';

/** Answers smaller than this are sent as they are. */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** The route @fastify/static serves every file of the web app on (`wildcard: true`). */
const WEB_APP_FILES_ROUTE = '/*';

const acceptsHtml = (accept: string | undefined) => (accept ?? '').includes('text/html');

/** Compression of dynamic answers; registered before any route, whose hooks it adds. */
export async function installCompression(app: FastifyInstance) {
  // Before the compression plugin's own onRoute hook, which reads `compress` to skip a route.
  // Brotli per request held a 174-byte favicon to ≈ 280 answers/s here; its copy goes at ≈ 1,100.
  app.addHook('onRoute', (route) => {
    if (route.url === WEB_APP_FILES_ROUTE) route.compress = false;
  });
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    // Brotli's default quality (11) costs far more CPU than it saves on an API answer.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}

export async function serveWebApp(app: FastifyInstance, webDir: string | undefined) {
  const hasWebApp = !!webDir && existsSync(join(webDir, 'index.html'));
  if (hasWebApp) {
    const assetsDir = join(webDir, 'assets');
    await app.register(fastifyStatic, {
      root: webDir,
      // a list: @fastify/static finds the precompressed index of `/` only in one (a string 404s)
      index: ['index.html'],
      wildcard: true,
      preCompressed: true, // the .br and .gz files written beside each asset by the build
      setHeaders: (reply: unknown, path: string) => {
        (reply as FastifyReply).header('cache-control', path.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (hasWebApp && request.method === 'GET' && acceptsHtml(request.headers.accept)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ errors: [{ code: 'NOT_FOUND', message: 'Not found' }] });
  });
}
