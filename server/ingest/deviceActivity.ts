// A device's `lastActivityTime` (ms, as ThingsBoard keeps it) follows its messages. Each accepted
// message marks its device seen; a device is written at most once per write interval, the first
// message after it at once and with that message's time, so a device sending ten messages a second
// costs one entity write a minute. Due devices gather for a moment and one statement writes them
// all (each statement also tells the tenants' caches once). Nothing of the ingest path waits for
// it: a failed write is reported, and the device's next message tries again.
import type { LastActivity, LastActivityWritten } from '../db/deviceQueries.ts';

export interface ActivityLimits {
  /** A device's lastActivityTime is written at most once per this long (ms). */
  lastActivityWriteIntervalMs: number;
  /** How long due writes gather before one statement writes them (ms). */
  lastActivityFlushMs: number;
  /** Devices whose last write is remembered, at most (beyond it, those written longest ago are forgotten first). */
  lastActivityTrackedDevices: number;
}

/** LAST_ACTIVITY_WRITE_INTERVAL: ThingsBoard's default activity check is a minute too. */
export const LAST_ACTIVITY_WRITE_INTERVAL_MS = 60_000;

export const DEFAULT_ACTIVITY_LIMITS: ActivityLimits = {
  lastActivityWriteIntervalMs: LAST_ACTIVITY_WRITE_INTERVAL_MS, lastActivityFlushMs: 1_000, lastActivityTrackedDevices: 200_000,
};

/**
 * Devices per statement, at most: 10,000 devices that connected together are all due a minute
 * later, and one statement for 5,000 of them held the embedded database for half a second, the
 * telemetry batches (and their PUBACKs) waiting behind it; at 500 the batches go in between.
 */
const MAX_ROWS_PER_WRITE = 500;

export interface ActivityOptions {
  /** Writes the times; answers the devices written. */
  write(activity: LastActivity[]): Promise<LastActivityWritten[]>;
  written(devices: LastActivityWritten[]): void;
  failed(error: unknown): void;
  limits?: Partial<ActivityLimits>;
  now?: () => number;
}

export interface DeviceActivity {
  /** A message of the device was accepted: its time is written if the interval has passed. */
  seen(device: Pick<LastActivity, 'tenantId' | 'entityId'>): void;
  /** The device's lastActivityTime was just written another way (it connected or disconnected): the interval starts again. */
  writtenNow(entityId: number): void;
  /** Writes what is due and stops. */
  close(): Promise<void>;
  /** Devices remembered (tests: the memory stays bounded). */
  tracked(): number;
}

export function deviceActivity(options: ActivityOptions): DeviceActivity {
  const { lastActivityWriteIntervalMs: interval, lastActivityFlushMs: flushMs, lastActivityTrackedDevices: maxTracked } = { ...DEFAULT_ACTIVITY_LIMITS, ...options.limits };
  const now = options.now ?? (() => Date.now()); // Date as it is at each call (tests move it)
  /** When each device was last written, the longest ago first (a write moves it to the end). */
  const lastWritten = new Map<number, number>();
  /** Due and not yet sent: per device, its tenant and the time of its message. */
  let due = new Map<number, LastActivity>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> | undefined;
  let closed = false;

  const remember = (entityId: number, at: number) => {
    lastWritten.delete(entityId);
    lastWritten.set(entityId, at);
    // Entries older than the interval say nothing any more; the cap holds when more are younger.
    for (const [oldest, writtenAt] of lastWritten) {
      if (at - writtenAt < interval && lastWritten.size <= maxTracked) break;
      lastWritten.delete(oldest);
    }
  };

  async function write(batch: LastActivity[]) {
    for (let start = 0; start < batch.length; start += MAX_ROWS_PER_WRITE) {
      const part = batch.slice(start, start + MAX_ROWS_PER_WRITE);
      try {
        options.written(await options.write(part));
      } catch (error) {
        for (const { entityId, ms } of part) if (lastWritten.get(entityId) === ms) lastWritten.delete(entityId); // the next message tries again
        options.failed(error);
      }
    }
  }

  function flush() {
    timer = undefined;
    const batch = [...due.values()];
    due = new Map();
    writing = write(batch).finally(() => {
      writing = undefined;
      if (due.size && !closed) schedule();
    });
  }

  function schedule() {
    if (!timer && !writing) timer = setTimeout(flush, flushMs);
  }

  return {
    seen(device) {
      if (closed) return;
      const at = now();
      const last = lastWritten.get(device.entityId);
      // A clock stepped back counts as due: the device is not silenced until it catches up.
      if (last !== undefined && at - last < interval && at >= last) return;
      remember(device.entityId, at);
      due.set(device.entityId, { tenantId: device.tenantId, entityId: device.entityId, ms: at });
      schedule();
    },
    writtenNow(entityId) {
      remember(entityId, now());
      due.delete(entityId); // an older time must not follow it
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await writing;
      const batch = [...due.values()];
      due = new Map();
      await write(batch);
    },
    tracked: () => lastWritten.size,
  };
}
