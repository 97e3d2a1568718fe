// A deploy keeps the files of earlier builds for a day (scripts/viteWebAppBuild.ts): a tab opened
// before it still loads its lazy chunks; then they are removed. What a build replaces each time
// (index.html, sw.js, build.json, branding) is never touched by the removal.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { KEEP_PREVIOUS_MS, newBuildId, removeOldBuildFiles, webAppBuild } from '../../../scripts/viteWebAppBuild.ts';
import { isBuildId } from '../../../server/live/webAppBuild.ts';

const dirs: string[] = [];
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

it('removes the files of earlier builds older than a day, with their compressed copies, and keeps the rest', () => {
  const out = mkdtempSync(join(tmpdir(), 'terrasight-dist-'));
  dirs.push(out);
  mkdirSync(join(out, 'assets'));
  const now = Date.now();
  const write = (file: string, ageMs: number) => {
    writeFileSync(join(out, file), 'x');
    const at = (now - ageMs) / 1000;
    utimesSync(join(out, file), at, at);
  };
  const day = KEEP_PREVIOUS_MS;
  for (const file of ['assets/old-AAAA.js', 'assets/old-AAAA.js.br', 'assets/old-AAAA.js.gz', 'workbox-1111.js']) write(file, day + 60_000);
  for (const file of ['assets/recent-BBBB.js', 'assets/recent-BBBB.js.br']) write(file, day - 60_000);
  for (const file of ['assets/index-CCCC.js', 'index.html', 'sw.js', 'build.json']) write(file, day * 3);

  const removed = removeOldBuildFiles(out, new Set(['assets/index-CCCC.js', 'index.html']), day, now);
  expect(removed.sort()).toEqual(['assets/old-AAAA.js', 'assets/old-AAAA.js.br', 'assets/old-AAAA.js.gz', 'workbox-1111.js']);
  expect(readdirSync(join(out, 'assets')).sort()).toEqual(['index-CCCC.js', 'recent-BBBB.js', 'recent-BBBB.js.br']);
  expect(readdirSync(out).sort()).toEqual(['assets', 'build.json', 'index.html', 'sw.js']);
});

it('names a build by its time and a random suffix, an id the server announces', () => {
  const id = newBuildId(new Date('2026-11-26T21:18:54.123Z'));
  expect(id).toMatch(/^20261126T211854Z-[0-9a-f]{6}$/);
  expect(isBuildId(id)).toBe(true);
});

it('refuses a BUILD_ID the server would never announce', () => {
  expect(() => webAppBuild('release 2026/11')).toThrow('BUILD_ID takes 1 to 100 letters, digits and . _ : -');
  expect(() => webAppBuild('x'.repeat(101))).toThrow(/BUILD_ID/);
  expect(webAppBuild('release-2026.11').name).toBe('terrasight-web-app-build');
});
