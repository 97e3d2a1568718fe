// Calls that gather for a moment and are answered together: the first waits `waitMs` for others,
// then up to `max` of them go to `run` in one go (one statement or transaction instead of one
// each); those arriving meanwhile go in the next, at once. With `keyOf`, calls of the same key go
// in different runs, in the order they came (a device's connect and its disconnect).

export interface GatherOptions<T> {
  waitMs: number;
  max: number;
  keyOf?: (item: T) => unknown;
}

interface Waiting<T, R> { item: T; resolve(result: R): void; reject(error: unknown): void }

/** A function taking one item and answering its result, `run` answering the results of many in order. */
export function gatheredCalls<T, R>(run: (items: T[]) => Promise<R[]>, { waitMs, max, keyOf }: GatherOptions<T>): (item: T) => Promise<R> {
  let queue: Waiting<T, R>[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;

  /** The next run's calls (at most `max`, one per key), the rest left in order. */
  const take = () => {
    const batch: Waiting<T, R>[] = [];
    const skipped: Waiting<T, R>[] = [];
    const keys = new Set<unknown>();
    let next = 0;
    for (; next < queue.length && batch.length < max; next++) {
      const waiting = queue[next];
      const key = keyOf?.(waiting.item);
      if (keyOf && keys.has(key)) skipped.push(waiting);
      else {
        keys.add(key);
        batch.push(waiting);
      }
    }
    queue = skipped.length ? [...skipped, ...queue.slice(next)] : queue.slice(next);
    return batch;
  };

  async function flush() {
    timer = undefined;
    running = true;
    while (queue.length) {
      const batch = take();
      try {
        const results = await run(batch.map((waiting) => waiting.item));
        batch.forEach((waiting, index) => waiting.resolve(results[index]));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    running = false;
  }

  return (item) => new Promise<R>((resolve, reject) => {
    queue.push({ item, resolve, reject });
    if (!timer && !running) timer = setTimeout(() => void flush(), waitMs);
  });
}
