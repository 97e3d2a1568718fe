// Requests per token and minute (docs/decisions.md "API users and tokens"): a fixed window per
// token, counted in this instance's memory, so each instance allows the limit on its own.
export interface RateLimit { requests: number; windowMs: number }

export const DEFAULT_API_RATE_LIMIT: RateLimit = { requests: 600, windowMs: 60_000 };

/** Windows kept at most; beyond it ended windows go first, then the oldest. */
const MAX_WINDOWS = 100_000;

export interface RequestRateLimiter {
  /** Counts a request of `key`: 0 when it may go on, else milliseconds until its window ends. */
  take(key: string): number;
}

export function requestRateLimiter(limit: RateLimit = DEFAULT_API_RATE_LIMIT, now = () => Date.now()): RequestRateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const makeRoom = (at: number) => {
    for (const [key, window] of windows) if (at - window.start >= limit.windowMs) windows.delete(key);
    if (windows.size >= MAX_WINDOWS) windows.delete(windows.keys().next().value!);
  };
  return {
    take(key) {
      const at = now();
      let window = windows.get(key);
      if (!window || at - window.start >= limit.windowMs) {
        if (!window && windows.size >= MAX_WINDOWS) makeRoom(at);
        window = { start: at, count: 0 };
        windows.delete(key); // a new window goes last, where the oldest are dropped first
        windows.set(key, window);
      }
      window.count++;
      return window.count > limit.requests ? window.start + limit.windowMs - at : 0;
    },
  };
}
