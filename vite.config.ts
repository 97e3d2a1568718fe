import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vitePrecompress.ts';

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
  '/watcher-list',
  '/update-password',
  '/api',
];

export default defineConfig({
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: {
      ...Object.fromEntries(apiPaths.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
      '/graphql': { target: apiTarget, ws: true },
    },
  },
});
