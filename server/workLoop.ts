// The loop every background engine runs on (telemetry maintenance, watchers, schedulers,
// notification delivery): call `work` now and again every `everyMs`; straight away while it says
// more is waiting (a batch at a time, the event loop free between batches); after a failure again
// in `retryFirstMs`, then twice that… never more often, never later than `everyMs`. `wake()` runs
// it early (new work was written here); `stop()` ends the loop and waits for a run under way.

export interface WorkLoopOptions {
  /** One pass; `true` when more work is already waiting. */
  work: () => Promise<boolean | void>;
  everyMs: number;
  retryFirstMs?: number;
  onError: (error: unknown) => void;
}

export interface WorkLoop {
  wake(): void;
  stop(): Promise<void>;
}

export function startWorkLoop({ work, everyMs, retryFirstMs = Math.min(everyMs, 1_000), onError }: WorkLoopOptions): WorkLoop {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | undefined;
  let wokenWhileRunning = false;
  let retryMs = retryFirstMs;

  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(run, delayMs).unref();
  };
  function run() {
    if (running || stopped) return;
    wokenWhileRunning = false;
    running = (async () => {
      let nextMs = everyMs;
      try {
        const more = await work();
        retryMs = retryFirstMs;
        if (more) nextMs = 0;
      } catch (error) {
        onError(error);
        nextMs = Math.min(retryMs, everyMs);
        retryMs *= 2;
      }
      running = undefined;
      schedule(wokenWhileRunning ? 0 : nextMs);
    })();
  }
  schedule(0);
  return {
    wake() {
      if (running) wokenWhileRunning = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
