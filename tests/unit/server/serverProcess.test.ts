// The server's process starts with a capped JavaScript heap, however it is started.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_OPTIONS } from '../../../scripts/serverProcess.ts';

const root = join(import.meta.dirname, '..', '..', '..');

describe("the server process's Node options", () => {
  it('npm start passes the same options as the scripts that spawn the server', () => {
    const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(packageJson.scripts.start).toBe(`node ${SERVER_NODE_OPTIONS.join(' ')} scripts/start.ts`);
  });

  it('cap the heap: 512 MB of old generation, under 800 MB in all', () => {
    const limit = (options: string[]) => Number(spawnSync(process.execPath,
      [...options, '-e', 'console.log(require("node:v8").getHeapStatistics().heap_size_limit)'], { encoding: 'utf8' }).stdout) / 1_048_576;
    expect(limit(SERVER_NODE_OPTIONS)).toBeGreaterThan(512);
    expect(limit(SERVER_NODE_OPTIONS)).toBeLessThan(800);
  });
});
