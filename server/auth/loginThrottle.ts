// Slows down password guessing: after too many failed sign-ins for one account or from one
// address within the window, further attempts are refused until the window has passed.
// Kept in memory per instance (see docs/decisions.md).

export interface ThrottleLimits { perAccount: number; perAddress: number; windowMs: number }

export const DEFAULT_THROTTLE: ThrottleLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

export interface LoginThrottle {
  /** Milliseconds until the account/address may try again, or 0 when allowed. */
  retryAfterMs(account: string, address: string): number;
  recordFailure(account: string, address: string): void;
  recordSuccess(account: string): void;
}

export function loginThrottle(limits: ThrottleLimits = DEFAULT_THROTTLE, now = () => Date.now()): LoginThrottle {
  const failures = new Map<string, number[]>();
  const recent = (key: string) => {
    const since = now() - limits.windowMs;
    const kept = (failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length) failures.set(key, kept);
    else failures.delete(key);
    return kept;
  };
  const wait = (key: string, limit: number) => {
    const list = recent(key);
    return list.length >= limit ? list[list.length - limit] + limits.windowMs - now() : 0;
  };
  return {
    retryAfterMs: (account, address) => Math.max(wait(`a:${account}`, limits.perAccount), wait(`ip:${address}`, limits.perAddress)),
    recordFailure(account, address) {
      for (const key of [`a:${account}`, `ip:${address}`]) failures.set(key, [...recent(key), now()]);
    },
    recordSuccess(account) {
      failures.delete(`a:${account}`);
    },
  };
}
