// Packet ids of the messages the server sends to a device session (server/ingest/mqtt/packetIds.ts).
import { describe, expect, it } from 'vitest';
import { packetIds } from '../../../server/ingest/mqtt/packetIds.ts';

describe('packetIds', () => {
  it('hands out 1, 2, 3… and never 0', () => {
    const ids = packetIds();
    expect([ids.take(), ids.take(), ids.take()]).toEqual([1, 2, 3]);
    expect(ids.size()).toBe(3);
  });

  it('wraps after 65535 and skips ids still in flight', () => {
    const ids = packetIds(65534);
    expect(ids.take()).toBe(65534);
    expect(ids.take()).toBe(65535);
    expect(ids.take()).toBe(1);
    ids.release(65534);
    expect(ids.inUse(65534)).toBe(false);
    expect(ids.inUse(65535)).toBe(true);
    // 2…65533 are free: taken in turn, then 65534 again, and 65535 and 1 are skipped.
    const taken = Array.from({ length: 65532 }, () => ids.take());
    expect(taken.every((id, index) => id === index + 2)).toBe(true);
    expect(ids.take()).toBe(65534);
    expect(ids.take()).toBeUndefined(); // all 65535 in use
    ids.release(300);
    expect(ids.take()).toBe(300);
  });

  it('a released id comes back only in its turn', () => {
    const ids = packetIds();
    const first = ids.take()!;
    ids.take();
    ids.release(first);
    expect(ids.take()).toBe(3);
    expect(ids.size()).toBe(2);
  });
});
