// Remembers, for a few seconds, what an API token was found to be, so that a program calling many
// times a second does not ask the database every time. A revocation empties it at once: in this
// instance directly, in the others through the database's notification
// (CHANNELS.apiTokensRevoked); the short lifetime bounds what a lost notification could cost.
// Expiry is checked on every use, against the remembered time.
import { SESSION_CACHE_MS } from './sessionCache.ts';

export interface ResolvedApiToken {
  id: string;
  tenantId: string;
  apiUserId: string;
  permissions: string[];
  expiresAt: number;
}

const MAX_TOKENS = 50_000;

export interface ApiTokenCache {
  get(tokenHash: string): ResolvedApiToken | undefined;
  /** Bumped by every `clear`; take it before asking the database about a token. */
  version(): number;
  /** Remembers a live token, unless the cache was cleared since `versionAtStart` (the answer may predate a revocation). */
  remember(tokenHash: string, token: ResolvedApiToken, versionAtStart: number): void;
  clear(): void;
}

export function apiTokenCache(ttlMs = SESSION_CACHE_MS, now = () => Date.now()): ApiTokenCache {
  const entries = new Map<string, { token: ResolvedApiToken; at: number }>();
  let cleared = 0;
  return {
    get(tokenHash) {
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      if (now() - entry.at < ttlMs) return entry.token;
      entries.delete(tokenHash);
      return undefined;
    },
    version: () => cleared,
    remember(tokenHash, token, versionAtStart) {
      if (versionAtStart !== cleared) return;
      if (entries.size >= MAX_TOKENS) entries.delete(entries.keys().next().value!); // the oldest
      entries.set(tokenHash, { token, at: now() });
    },
    clear() {
      cleared++;
      entries.clear();
    },
  };
}
