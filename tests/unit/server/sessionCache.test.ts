import { describe, expect, it } from 'vitest';
import { sessionCache } from '../../../server/auth/sessionCache.ts';

describe('sessionCache', () => {
  it('remembers a live session for its lifetime only', () => {
    let now = 0;
    const cache = sessionCache(5000, () => now);
    expect(cache.isLive('s1')).toBe(false);
    cache.remember('s1');
    now = 4999;
    expect(cache.isLive('s1')).toBe(true);
    now = 5000;
    expect(cache.isLive('s1')).toBe(false);
  });

  it('forgets a revoked session at once', () => {
    const cache = sessionCache(5000, () => 0);
    cache.remember('s1');
    cache.remember('s2');
    cache.forget('s1');
    expect(cache.isLive('s1')).toBe(false);
    expect(cache.isLive('s2')).toBe(true);
  });
});
