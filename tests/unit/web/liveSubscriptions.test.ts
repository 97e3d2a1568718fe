// A page or component listens to the live connection through useLiveSubscription (or refine's
// liveProvider), never by subscribing on the connection itself: one place holds a subscription's
// life (mount, change, unmount).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../../src');
const filesUnder = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
});

it('only src/providers/ subscribes on the live connection', () => {
  const direct = filesUnder(SRC)
    .filter((file) => !file.startsWith(join(SRC, 'providers')) && /liveConnection\s*\.\s*subscribe\b/.test(readFileSync(file, 'utf8')))
    .map((file) => file.slice(SRC.length + 1));
  expect(direct).toEqual([]);
});
