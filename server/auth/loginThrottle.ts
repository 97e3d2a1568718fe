// Slows down password guessing without letting an attacker lock the owner out
// (docs/decisions.md "Sign-in throttling"). Failed attempts, malformed ones included, are counted
// per account+address pair, per address and per account, in the database:
// - a pair past `perPair` failures waits a delay that doubles with every further failure;
// - an address past `perAddress` failures (any accounts) waits until its window ends;
// - an account past the higher `perAccount` ceiling (failures from anywhere) makes *unknown*
//   addresses wait a growing delay too, while addresses the account signed in from before
//   (for `knownForMs`) are not slowed by it — so a distributed attack cannot lock out the owner.
import type { CounterRow, ThrottleStore } from '../db/throttleStore.ts';
import { ApiError } from '../errors.ts';

export interface ThrottleLimits {
  perPair: number;
  perAddress: number;
  perAccount: number;
  windowMs: number;
  /** First delay after a ceiling is passed; doubles per further failure, at most `windowMs`. */
  baseDelayMs: number;
  knownForMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = {
  perPair: 5, perAddress: 20, perAccount: 50, windowMs: 15 * 60_000, baseDelayMs: 30_000, knownForMs: 30 * 86_400_000,
};

export interface LoginThrottle {
  /** Milliseconds (`account` may be '' when the request had none) until this account may try again from this address, or 0 when allowed. */
  retryAfterMs(account: string, address: string): Promise<number>;
  recordFailure(account: string, address: string): Promise<void>;
  recordSuccess(account: string, address: string): Promise<void>;
}

/** How often rows untouched for longer than they matter are deleted. */
const PRUNE_EVERY_MS = 60_000;

const keysOf = (account: string, address: string) => ({
  pair: `pair:${account}|${address}`, address: `address:${address}`, account: `account:${account}`, known: `known:${account}|${address}`,
});

export function loginThrottle(store: ThrottleStore, limits: ThrottleLimits = DEFAULT_THROTTLE, now = () => Date.now()): LoginThrottle {
  let prunedAt = 0;

  /** Failures within the current window (a row whose window has ended counts as none). */
  const inWindow = (row: CounterRow | undefined, at: number) => (row && row.windowStart.getTime() > at - limits.windowMs ? row : undefined);
  const growingDelay = (row: CounterRow, ceiling: number) =>
    Math.min(limits.baseDelayMs * 2 ** Math.min(row.failures - ceiling, 30), limits.windowMs);
  const waitUntil = (until: number, at: number) => Math.max(0, until - at);

  return {
    async retryAfterMs(account, address) {
      const keys = keysOf(account, address);
      const rows = new Map((await store.read(Object.values(keys))).map((row) => [row.key, row]));
      const at = now();
      let wait = 0;
      const pair = inWindow(rows.get(keys.pair), at);
      if (pair && pair.failures >= limits.perPair) wait = Math.max(wait, waitUntil(pair.lastAt.getTime() + growingDelay(pair, limits.perPair), at));
      const byAddress = inWindow(rows.get(keys.address), at);
      if (byAddress && byAddress.failures >= limits.perAddress) wait = Math.max(wait, waitUntil(byAddress.windowStart.getTime() + limits.windowMs, at));
      const byAccount = inWindow(rows.get(keys.account), at);
      const known = rows.get(keys.known);
      const isKnown = !!known && known.lastAt.getTime() > at - limits.knownForMs;
      if (byAccount && byAccount.failures >= limits.perAccount && !isKnown) {
        wait = Math.max(wait, waitUntil(byAccount.lastAt.getTime() + growingDelay(byAccount, limits.perAccount), at));
      }
      return wait;
    },

    async recordFailure(account, address) {
      const keys = keysOf(account, address);
      const at = now();
      // A request without a readable e-mail counts against its address only.
      const counted = account ? [keys.pair, keys.address, keys.account] : [keys.address];
      await store.addFailure(counted, new Date(at), new Date(at - limits.windowMs));
      if (at - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = at;
        await store.prune(new Date(at - Math.max(limits.windowMs, limits.knownForMs)));
      }
    },

    async recordSuccess(account, address) {
      const keys = keysOf(account, address);
      await store.reset([keys.pair, keys.known], new Date(now()));
    },
  };
}

/** Throws the 429 of a sign-in that must wait (with Retry-After), or returns. */
export async function refuseWhileThrottled(throttle: LoginThrottle, account: string, address: string): Promise<void> {
  const waitMs = await throttle.retryAfterMs(account, address);
  if (waitMs <= 0) return;
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  const error = new ApiError(429, 'RATE_LIMITED', `Too many failed sign-in attempts. Try again in ${minutes} minutes.`, undefined, { minutes });
  error.retryAfterSeconds = Math.ceil(waitMs / 1000);
  throw error;
}
