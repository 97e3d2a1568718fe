// Security headers on every answer (helmet): a Content-Security-Policy the web app works under —
// its own scripts only, styles inline too (antd writes style tags), workers from its own files
// (the CSV reader) and blob: (the map), the GraphQL websocket of the same origin, images, fonts
// and data from the base map's origins; board components' images, videos and web pages from
// https: (a board's web pages are narrowed to the tenant's list once the web app knows the tenant:
// src/components/layout/tenantFramePolicy.ts) — this site framed by no one, nosniff, a strict
// referrer policy, and HSTS when TLS is configured.
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { BaseMap } from '../../src/schemas/mapConfig.ts';

/**
 * The origins the browser may load the base map from (the CSP's img-src, font-src and
 * connect-src): the configured base map's own origin and MAP_TILE_HOSTS; none for the offline map.
 */
export function mapOrigins(baseMap: BaseMap, tileHosts: string[]): string[] {
  if (baseMap.kind === 'offline' || !baseMap.url) return [];
  return [...new Set([new URL(baseMap.url).origin, ...tileHosts])];
}

export interface HeaderOptions {
  /** Origins the base map loads its style, tiles, fonts and sprites from (config.ts `mapOrigins`). */
  mapOrigins: string[];
  /** Send Strict-Transport-Security (TLS served here, or by a proxy in front: HSTS=on). */
  hsts: boolean;
}

const HSTS_SECONDS = 365 * 86_400;

/** The CSP directives; `frameAncestors` stays 'none' until embeddable boards relax it for their own route. */
export function contentSecurityPolicy(mapOrigins: string[], frameAncestors: string[] = ["'none'"]) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...mapOrigins],
    // blob: a board's uploaded video, fetched with the session like the overlay image
    mediaSrc: ["'self'", 'blob:', 'https:'],
    frameSrc: ["'self'", 'https:'],
    fontSrc: ["'self'", 'data:', ...mapOrigins],
    // blob: the region's overlay image, fetched with the session and handed to the map as an object URL
    connectSrc: ["'self'", 'blob:', ...mapOrigins],
    workerSrc: ["'self'", 'blob:'],
    childSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors,
  };
}

export async function installSecurityHeaders(app: FastifyInstance, options: HeaderOptions) {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options.mapOrigins) },
    // Map tiles come from other origins; requiring CORP/COEP from them would break the map.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: options.hsts ? { maxAge: HSTS_SECONDS, includeSubDomains: true } : false,
  });
}
