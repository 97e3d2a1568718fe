import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vitePrecompress.ts';
import { modelValidators } from './scripts/viteModelValidators.ts';
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

export default defineConfig({
  plugins: [react(), modelValidators(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: {
      ...Object.fromEntries(apiPaths.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
      '/graphql': { target: apiTarget, ws: true },
    },
  },
});
