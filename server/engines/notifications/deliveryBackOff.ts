// How often and how late a notification is tried again: 30 s after the first failed attempt,
// doubling (1 min, 2 min, 4 min), and after the fifth the delivery is given up.

export const MAX_DELIVERY_ATTEMPTS = 5;
const FIRST_RETRY_MS = 30_000;

/** The wait after failed attempt number `attempt` (from 1); undefined when it was the last. */
export function retryDelayMs(attempt: number): number | undefined {
  if (attempt >= MAX_DELIVERY_ATTEMPTS) return undefined;
  return FIRST_RETRY_MS * 2 ** (Math.max(attempt, 1) - 1);
}
