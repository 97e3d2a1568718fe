// The open device sessions of an instance (server/ingest/mqtt/sessionRegistry.ts): one per client
// key, any number per entity.
import { describe, expect, it } from 'vitest';
import { sessionRegistry } from '../../../server/ingest/mqtt/sessionRegistry.ts';

const session = (entityId: number, key: string) => ({ device: { entityId }, key });

describe('sessionRegistry', () => {
  it('keeps an entity\'s sessions under different keys, and forgets each alone', () => {
    const sessions = sessionRegistry<ReturnType<typeof session>>();
    const [a, b, c] = [session(1, 'a'), session(1, 'b'), session(2, 'c')];
    for (const s of [a, b, c]) sessions.add(s);
    expect(sessions.ofEntity(1)).toEqual([a, b]);
    expect(sessions.entities().sort()).toEqual([1, 2]);
    expect(sessions.size()).toBe(3);
    sessions.remove(a);
    expect(sessions.ofEntity(1)).toEqual([b]);
    sessions.remove(b);
    expect(sessions.ofEntity(1)).toEqual([]);
    expect(sessions.entities()).toEqual([2]);
  });

  it('a second session under a key takes over; removing the replaced one leaves the new one be', () => {
    const sessions = sessionRegistry<ReturnType<typeof session>>();
    const [first, second] = [session(1, 'k'), session(1, 'k')];
    sessions.add(first);
    sessions.add(second);
    expect(sessions.byKey('k')).toBe(second);
    sessions.remove(first);
    expect(sessions.byKey('k')).toBe(second);
    expect(sessions.ofEntity(1)).toEqual([second]);
    expect(sessions.size()).toBe(1);
  });
});
