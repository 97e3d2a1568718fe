import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './scripts/vitePrecompress.ts';
import { modelValidators } from './scripts/viteModelValidators.ts';
import { webAppBuild } from './scripts/viteWebAppBuild.ts';
import { MODEL_SCHEMAS } from './src/schemas/models.ts';

// The dev server forwards every API path to the Terrasight server (PORT, default 3000).
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const apiPaths = [
  '/auth',
  '/tenant',
  '/user-me',
  '/entity-type-list',
  '/entity-list',
  '/entity',
  '/group-tree',
  '/group-list',
  '/group-members',
  '/map-features',
  '/map-config',
  '/kpi-data',
  '/update-password',
  '/api',
  // the models' REST doors (/watcher-list, /create-watcher, …)
  ...Object.values(MODEL_SCHEMAS).flatMap((model) => Object.values((model['x-api'] as { rest?: Record<string, string> }).rest ?? {})),
];

/** Addresses the browser navigates to that are the server's, never the web app's page. */
const SERVER_PAGES = [/^\/api\//, /^\/graphql/, /^\/health/, /^\/auth\//, /^\/mqtt/, /^\/board-media\//];

const build = webAppBuild();

export default defineConfig({
  plugins: [
    react(),
    modelValidators(),
    build,
    // The service worker (docs/decisions.md "Updates"): it precaches this build's shell and lazy
    // chunks and waits, once installed, until the user asks for the new version (src/pwa/).
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: false, // each branding variant has its own (public/branding/*/manifest.webmanifest)
      workbox: {
        // mjs: MapLibre's worker script, started by the map
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,webmanifest}'],
        manifestTransforms: [async (entries) => ({ manifest: entries.filter((entry) => build.ofThisBuild(entry.url)), warnings: [] })],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: SERVER_PAGES,
        cleanupOutdatedCaches: true,
        clientsClaim: true,
      },
    }),
    precompress(),
    build.announcement(),
  ],
  build: { outDir: 'dist' },
  server: {
    proxy: {
      ...Object.fromEntries(apiPaths.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
      '/graphql': { target: apiTarget, ws: true },
    },
  },
});
