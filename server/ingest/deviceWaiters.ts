// HTTP devices waiting for something (a command, an attribute update): by entity id, each woken
// with what came for it, or with nothing when its time is up or its request went away.
export function deviceWaiters<T>() {
  const waiting = new Map<number, Set<(value: T | undefined) => void>>();
  return {
    /** Waits at most `ms` for `wake(entityId, value)`; undefined when none came (or `signal` aborted). */
    wait(entityId: number, ms: number, signal?: AbortSignal): Promise<T | undefined> {
      return new Promise((resolve) => {
        const set = waiting.get(entityId) ?? new Set();
        const done = (value: T | undefined) => {
          clearTimeout(timer);
          set.delete(done);
          if (!set.size) waiting.delete(entityId);
          signal?.removeEventListener('abort', aborted);
          resolve(value);
        };
        const aborted = () => done(undefined);
        const timer = setTimeout(aborted, Math.max(0, ms));
        set.add(done);
        waiting.set(entityId, set);
        if (signal?.aborted) aborted();
        else signal?.addEventListener('abort', aborted);
      });
    },
    /** Wakes every waiter of the device with `value`. */
    wake(entityId: number, value: T) {
      for (const done of [...(waiting.get(entityId) ?? [])]) done(value);
    },
    has: (entityId: number) => waiting.has(entityId),
  };
}
