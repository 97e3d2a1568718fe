// Entries built on first use (the map's grids, the colour-by columns): one build for everyone
// asking at once, a failed build forgotten, an old entry built again behind its answers, the
// least recently used dropped beyond the size bound.
import { describe, expect, it } from 'vitest';
import { builtOnUse, type BuiltEntry } from '../../../server/cache/builtOnUse.ts';

interface Entry extends BuiltEntry { name: string; size: number; builds: number }

function setUp(maxSize = 10) {
  const clock = { now: 0 };
  const kept = builtOnUse<Entry>({ maxAgeMs: 1_000, maxSize, sizeOf: (entry) => entry.size, now: () => clock.now });
  const calls: [string, boolean][] = [];
  let failNext = false;
  const take = (name: string, size = 1) => kept.take(name, () => ({ name, size, builds: 0, ready: Promise.resolve(), builtAt: 0 }), async (entry, first) => {
    calls.push([name, first]);
    await Promise.resolve();
    if (failNext) {
      failNext = false;
      throw new Error('the database went away');
    }
    entry.builds++;
    entry.builtAt = clock.now;
    kept.evict();
  });
  return { kept, clock, calls, take, failNext: () => { failNext = true; } };
}

describe('builtOnUse', () => {
  it('builds an entry once for everyone asking while it is built, by the first caller', async () => {
    const { take, calls } = setUp();
    const entries = await Promise.all([take('a'), take('a'), take('a')]);
    expect(new Set(entries).size).toBe(1);
    expect(entries[0].builds).toBe(1);
    expect(calls).toEqual([['a', true]]);
  });

  it('forgets a failed build: the next use builds again', async () => {
    const { take, calls, failNext } = setUp();
    failNext();
    await expect(take('a')).rejects.toThrow('the database went away');
    expect((await take('a')).builds).toBe(1);
    expect(calls).toEqual([['a', true], ['a', true]]);
  });

  it('builds an old entry again in the background while it answers', async () => {
    const { take, calls, clock } = setUp();
    const entry = await take('a');
    clock.now = 1_001;
    expect(await take('a')).toBe(entry); // answered at once, the old build
    expect(calls).toEqual([['a', true], ['a', false]]);
    await expect.poll(() => entry.builds).toBe(2);
    await take('a'); // built again just now: not again
    expect(calls).toHaveLength(2);
  });

  it('drops the least recently used beyond the size bound, never the last one', async () => {
    const { take, kept } = setUp(10);
    await take('a', 4);
    await take('b', 4);
    await take('a', 4); // a used again: b is now the oldest
    await take('c', 4);
    expect([...kept.entries.keys()]).toEqual(['a', 'c']);
    await take('huge', 50);
    expect([...kept.entries.keys()]).toEqual(['huge']);
  });
});
