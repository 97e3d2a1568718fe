import { describe, expect, it } from 'vitest';
import { tenantReadCache, filtersKey, MAX_AGE_MS } from '../../../server/cache/tenantReadCache.ts';

describe('tenantReadCache', () => {
  it('keeps a list per tenant and key until the tenant changes', () => {
    const cache = tenantReadCache(() => 0);
    cache.set('a', 'k', '[1]', cache.version('a'));
    cache.set('b', 'k', '[2]', cache.version('b'));
    expect(cache.get('a', 'k')).toBe('[1]');
    expect(cache.get('b', 'k')).toBe('[2]');
    cache.invalidate('a');
    expect(cache.get('a', 'k')).toBeUndefined();
    expect(cache.get('b', 'k')).toBe('[2]');
  });

  it('does not store a list read before a change that landed meanwhile', () => {
    const cache = tenantReadCache(() => 0);
    const before = cache.version('a');
    cache.invalidate('a'); // the change's notification arrives while the read runs
    cache.set('a', 'k', '[stale]', before);
    expect(cache.get('a', 'k')).toBeUndefined();
  });

  it('forgets lists older than its maximum age', () => {
    let now = 0;
    const cache = tenantReadCache(() => now);
    cache.set('a', 'k', '[1]', 0);
    now = MAX_AGE_MS;
    expect(cache.get('a', 'k')).toBeUndefined();
  });

  it('gives the same key to the same filters in any order', () => {
    expect(filtersKey({ level: 0, type: 3, search: undefined })).toBe(filtersKey({ type: 3, level: 0 }));
    expect(filtersKey({ level: 0 })).not.toBe(filtersKey({ level: 1 }));
  });
});
