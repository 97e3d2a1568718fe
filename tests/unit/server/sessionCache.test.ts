import { describe, expect, it } from 'vitest';
import { sessionCache } from '../../../server/auth/sessionCache.ts';

describe('sessionCache', () => {
  it('remembers a live session for its lifetime only', () => {
    let now = 0;
    const cache = sessionCache(5000, () => now);
    expect(cache.isLive('s1')).toBe(false);
    cache.remember('s1', cache.version());
    now = 4999;
    expect(cache.isLive('s1')).toBe(true);
    now = 5000;
    expect(cache.isLive('s1')).toBe(false);
  });

  it('forgets a revoked session at once', () => {
    const cache = sessionCache(5000, () => 0);
    cache.remember('s1', cache.version());
    cache.remember('s2', cache.version());
    cache.forget('s1');
    expect(cache.isLive('s1')).toBe(false);
    expect(cache.isLive('s2')).toBe(true);
  });

  it('does not remember a check that was under way when a session was revoked', () => {
    const cache = sessionCache(5000, () => 0);
    const before = cache.version(); // the database is asked ...
    cache.forget('s1'); // ... the logout commits and drops the session meanwhile ...
    cache.remember('s1', before); // ... and the answer, read before the revocation, says live
    expect(cache.isLive('s1')).toBe(false);
    cache.remember('s1', cache.version()); // a check started after the revocation is believed
    expect(cache.isLive('s1')).toBe(true);
  });
});
