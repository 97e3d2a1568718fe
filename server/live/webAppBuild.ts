// The web app's build this instance serves (`build.json` beside it, written by the build:
// scripts/viteWebAppBuild.ts). Open tabs subscribe to `web_app_build` on the GraphQL WebSocket and
// hear the id at once and again whenever a deploy replaces the build (the file is looked at every
// second), so that a tab learns of a new version within seconds, not at its hourly check.
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';

export const WEB_APP_BUILD_TOPIC = 'web_app_build';
/** The file beside the web app naming its build. */
export const BUILD_FILE = 'build.json';
/** What a build id may be (BUILD_ID is checked by the build against it). */
export const isBuildId = (id: unknown): id is string => typeof id === 'string' && /^[\w.:-]{1,100}$/.test(id);
/** How often the build file is looked at (ms). */
const WATCH_MS = 1_000;

export interface WebAppBuild {
  /** The id of the build served now; undefined without a built web app. */
  current(): string | undefined;
  stop(): void;
}

function readBuildId(file: string): string | undefined {
  try {
    const { build_id: id } = JSON.parse(readFileSync(file, 'utf8')) as { build_id?: unknown };
    return isBuildId(id) ? id : undefined;
  } catch {
    return undefined; // no build, or one being written
  }
}

/** Reads the build id served from `webDir`, and tells `changed` of each new one. */
export function watchWebAppBuild(webDir: string | undefined, changed: (buildId: string) => void): WebAppBuild {
  if (!webDir) return { current: () => undefined, stop: () => {} };
  const file = join(webDir, BUILD_FILE);
  let current = readBuildId(file);
  watchFile(file, { interval: WATCH_MS, persistent: false }, () => {
    const next = readBuildId(file);
    if (!next || next === current) return;
    current = next;
    changed(next);
  });
  return { current: () => current, stop: () => unwatchFile(file) };
}
