// Runs at most `concurrency` tasks at once, the others waiting in arrival order. The broker puts
// the work that turns a received packet into queued points behind one: while the writer's queue is
// full, the messages behind the gate stay packets (their payloads slices of a socket read) rather
// than parsed JSON and points, so memory under a flood grows with the connections' read buffers,
// not with everything those buffers held.
export interface AdmissionGate {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks waiting for their turn. */
  waiting(): number;
}

export function admissionGate(concurrency: number): AdmissionGate {
  const queue: (() => void)[] = [];
  let head = 0;
  let running = 0;

  const next = () => {
    running--;
    if (head < queue.length) {
      running++;
      queue[head++]();
      if (head === queue.length || head > 1024) {
        queue.splice(0, head);
        head = 0;
      }
    }
  };

  return {
    async run(task) {
      if (running >= concurrency) await new Promise<void>((turn) => queue.push(turn));
      else running++;
      try {
        return await task();
      } finally {
        next();
      }
    },
    waiting: () => queue.length - head,
  };
}
