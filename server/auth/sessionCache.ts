// Remembers, for a few seconds, which sessions were found live, so that an authenticated request
// does not ask the database every time. A revocation drops the session at once: in this instance
// directly, in the others through the database's notification (CHANNELS.sessionRevoked); the
// short lifetime bounds what a lost notification could cost.
export const SESSION_CACHE_MS = 5000;
const MAX_SESSIONS = 50_000;

export interface SessionCache {
  isLive(sessionId: string): boolean;
  /** Bumped by every `forget`; take it before asking the database whether a session is live. */
  version(): number;
  /**
   * Remembers a session the database found live, unless a session was forgotten since
   * `versionAtStart`: that answer may predate the revocation and must not outlive it.
   */
  remember(sessionId: string, versionAtStart: number): void;
  forget(sessionId: string): void;
  /** Forgets every session (revocations may have been missed). */
  forgetAll(): void;
}

export function sessionCache(ttlMs = SESSION_CACHE_MS, now = () => Date.now()): SessionCache {
  const checkedAt = new Map<string, number>();
  let forgotten = 0;
  return {
    isLive(sessionId) {
      const at = checkedAt.get(sessionId);
      if (at === undefined) return false;
      if (now() - at < ttlMs) return true;
      checkedAt.delete(sessionId);
      return false;
    },
    version: () => forgotten,
    remember(sessionId, versionAtStart) {
      if (versionAtStart !== forgotten) return;
      if (checkedAt.size >= MAX_SESSIONS) checkedAt.delete(checkedAt.keys().next().value!); // the oldest
      checkedAt.set(sessionId, now());
    },
    forget(sessionId) {
      forgotten++;
      checkedAt.delete(sessionId);
    },
    forgetAll() {
      forgotten++;
      checkedAt.clear();
    },
  };
}
