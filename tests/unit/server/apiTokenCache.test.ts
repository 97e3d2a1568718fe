import { describe, expect, it } from 'vitest';
import { apiTokenCache } from '../../../server/auth/apiTokenCache.ts';

const token = { id: 't1', tenantId: 'tenant', apiUserId: 'u1', permissions: [], expiresAt: 10_000 };

describe('apiTokenCache', () => {
  it('remembers a token for its lifetime only, and forgets every token when cleared', () => {
    let now = 0;
    const cache = apiTokenCache(5000, () => now);
    cache.remember('h1', token, cache.version());
    now = 4999;
    expect(cache.get('h1')).toEqual(token);
    cache.clear();
    expect(cache.get('h1')).toBeUndefined();
    cache.remember('h1', token, cache.version());
    now = 9999;
    expect(cache.get('h1')).toBeUndefined();
  });

  it('does not remember an answer read before a revocation', () => {
    const cache = apiTokenCache(5000, () => 0);
    const before = cache.version(); // the database is asked ...
    cache.clear(); // ... a revocation commits meanwhile ...
    cache.remember('h1', token, before); // ... and the answer, read before it, says live
    expect(cache.get('h1')).toBeUndefined();
  });
});
