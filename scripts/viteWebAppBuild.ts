// Vite plugins for deploys: each build has an id (BUILD_ID, else the time of the build and a random
// suffix), compiled into the web app (`__BUILD_ID__`) and written to `build.json` beside it, which
// the server announces to open tabs (server/live/webAppBuild.ts) — written last (`announcement`,
// the last plugin), once the service worker of the build is in place, or a tab told of the build
// would look for the worker too early and find the old one. The output directory is not emptied:
// the files of earlier builds stay for KEEP_PREVIOUS_MS, so that a tab opened before a deploy
// still loads its lazy chunks, and only then are they removed.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Plugin } from 'vite';
import { BUILD_FILE, isBuildId } from '../server/live/webAppBuild.ts';

/** How long the files of an earlier build are kept after a newer build (ms): at least a day. */
export const KEEP_PREVIOUS_MS = 24 * 60 * 60_000;
/** What an earlier build leaves that later ones replace or keep: hashed assets, and workbox's runtime. */
const KEPT = /^(assets\/.+|workbox-[\w-]+\.js)(\.br|\.gz)?$/;

export function newBuildId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
}

/**
 * Removes from `outDir` the files of earlier builds (hashed assets, workbox's runtime and their
 * compressed copies) that this build did not write and that are older than `keepMs`.
 */
export function removeOldBuildFiles(outDir: string, written: Set<string>, keepMs = KEEP_PREVIOUS_MS, now = Date.now()): string[] {
  const removed: string[] = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) {
        visit(path);
        continue;
      }
      const file = relative(outDir, path).split('\\').join('/');
      const original = file.replace(/\.(br|gz)$/, '');
      if (!KEPT.test(file) || written.has(original) || now - stat.mtimeMs < keepMs) continue;
      unlinkSync(path);
      removed.push(file);
    }
  };
  visit(outDir);
  return removed;
}

export interface WebAppBuildPlugin extends Plugin {
  /** Whether a file of the output (its path in it) belongs to this build, not to an earlier one kept. */
  ofThisBuild(file: string): boolean;
  /** The plugin that writes `build.json` when everything else is written: put it last. */
  announcement(): Plugin;
}

export function webAppBuild(buildId = process.env.BUILD_ID || newBuildId()): WebAppBuildPlugin {
  // the server announces only an id of this form: another would be built and never told to a tab
  if (!isBuildId(buildId)) throw new Error('BUILD_ID takes 1 to 100 letters, digits and . _ : -');
  let outDir = 'dist';
  const written = new Set<string>();
  return {
    ofThisBuild: (file) => !KEPT.test(file) || written.has(file),
    name: 'terrasight-web-app-build',
    config: () => ({ define: { __BUILD_ID__: JSON.stringify(buildId) }, build: { emptyOutDir: false } }),
    configResolved(config) {
      outDir = config.build.outDir;
    },
    generateBundle(_options, bundle) {
      for (const file of Object.keys(bundle)) written.add(file);
    },
    closeBundle: {
      order: 'pre',
      handler() {
        removeOldBuildFiles(outDir, written);
      },
    },
    announcement: () => ({
      name: 'terrasight-web-app-build-announcement',
      apply: 'build',
      closeBundle: {
        order: 'post',
        sequential: true,
        handler() {
          const file = join(outDir, BUILD_FILE);
          for (const copy of [`${file}.br`, `${file}.gz`]) rmSync(copy, { force: true }); // an earlier build's, never current
          writeFileSync(file, `${JSON.stringify({ build_id: buildId })}\n`);
        },
      },
    }),
  };
}
