// What a person waits for goes first on the embedded database, which runs one statement at a time:
// while HTTP requests are being answered, the engines' background loops wait between two of their
// statements — at most MAX_YIELD_MS each time, so they are slowed, never starved. At a million
// devices a map's first build (twenty statements) otherwise took turns with the lighting engine's
// and the watchers' windows and took three times as long. On PostgreSQL, where statements run side
// by side, nothing waits.

/** The longest a background loop waits for the requests under way before its next statement. */
export const MAX_YIELD_MS = 250;

export interface Foreground {
  /** A request began; the function returned says it ended (once, however often called). */
  began(): () => void;
  /** Resolves when no request is under way, or after `MAX_YIELD_MS`. */
  yieldTo(): Promise<void>;
}

/** Nothing is ever waited for (PostgreSQL, tests of the engines alone). */
export const NO_FOREGROUND: Foreground = { began: () => () => {}, yieldTo: async () => {} };

export function foreground(maxYieldMs = MAX_YIELD_MS): Foreground {
  let underWay = 0;
  const waiting = new Set<() => void>();
  const release = () => {
    for (const wake of waiting) wake();
    waiting.clear();
  };
  return {
    began() {
      underWay++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        if (--underWay === 0) release();
      };
    },
    yieldTo() {
      if (underWay === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiting.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, maxYieldMs);
        timer.unref();
        waiting.add(wake);
      });
    },
  };
}
