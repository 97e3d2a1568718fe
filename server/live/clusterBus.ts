// Live events between instances on one PostgreSQL database. An instance tells its own subscribers
// at once and sends its events to the others in batches: every FLUSH_MS at most one row of
// live_event_batches and one notification naming it (NOTIFY takes a database-wide lock at commit:
// one per telemetry point would queue every writer behind it). The others read the batches they are
// told of and tell their subscribers. Batches are kept KEEP_MS: when an instance's listening
// connection comes back after a loss, it reads every batch written since (`restored`); one away
// longer than that cannot, and says so (`onGap`), so that its subscribers start again.
import type { Database } from '../db/database.ts';
import { CHANNELS } from '../db/database.ts';
import {
  liveEventBatchesById, liveEventBatchesSince, pruneLiveEventBatches, sendLiveEventBatch, type LiveEventBatch,
} from '../db/liveEventQueries.ts';

/** An event for the subscribers of a topic, on every instance. */
export interface ClusterEvent { topic: string; payload: unknown }

/** How long events gather before they are sent (ms): the others hear of an event within this plus a read. */
export const FLUSH_MS = 50;
/** How long batches are kept (ms), and so the longest loss of the listening connection that loses nothing. */
export const KEEP_MS = 5 * 60_000;
/** Events per batch row, at most (a burst becomes several rows). */
const EVENTS_PER_BATCH = 1_000;
/** Events waiting to be sent, at most: beyond it (the database away) new ones are dropped and counted. */
const MAX_PENDING = 100_000;
/** Batches read per catch-up query. */
const CATCH_UP_PAGE = 200;
/** Batch rows written this long before the connection was lost may have committed after it (ms). */
const COMMIT_MARGIN_MS = 30_000;

export interface ClusterBusOptions {
  db: Database;
  /** This instance's id: its own batches are not read back. */
  instanceId: string;
  /** Tells this instance's subscribers an event of another instance. */
  deliver(event: ClusterEvent): void;
  /** The batches written while this instance was not listening could not all be read: subscribers must start again. */
  onGap(): void;
  onError(error: unknown): void;
  flushMs?: number;
  keepMs?: number;
}

export interface ClusterBus {
  /** Sends an event to the other instances (this one's subscribers are told by the caller). */
  send(event: ClusterEvent): void;
  /** Events dropped because they could not be sent (tests, logs). */
  dropped(): number;
  /** Sends what is waiting and stops. */
  close(): Promise<void>;
}

export async function startClusterBus(options: ClusterBusOptions): Promise<ClusterBus> {
  const { db, instanceId, flushMs = FLUSH_MS, keepMs = KEEP_MS } = options;
  const pending: ClusterEvent[] = [];
  let dropped = 0;
  let flushTimer: NodeJS.Timeout | undefined;
  /** The sending under way: what gathers meanwhile goes when it is done, never two at once. */
  let sending: Promise<void> | undefined;
  let closed = false;
  /** Batches of others already delivered, with when (ms): a batch both announced and caught up is told once. */
  const delivered = new Map<number, number>();
  let lastPrunedAt = 0;

  const sendPending = async () => {
    while (pending.length > 0) {
      const events = pending.splice(0, EVENTS_PER_BATCH);
      await sendLiveEventBatch(db, instanceId, events).catch((error: unknown) => {
        dropped += events.length;
        options.onError(error);
      });
    }
    if (Date.now() - lastPrunedAt > keepMs / 5) {
      lastPrunedAt = Date.now();
      await pruneLiveEventBatches(db, keepMs).catch(options.onError); // every instance does; a few rows each time
    }
  };
  const flush = () => {
    flushTimer = undefined;
    sending ??= sendPending().finally(() => {
      sending = undefined;
      if (pending.length > 0 && !closed) flushTimer ??= setTimeout(flush, flushMs);
    });
  };

  const deliverBatches = (batches: LiveEventBatch[]) => {
    const now = Date.now();
    for (const batch of batches) {
      if (batch.origin === instanceId || delivered.has(batch.id)) continue;
      delivered.set(batch.id, now);
      for (const event of batch.events as ClusterEvent[]) options.deliver(event);
    }
    for (const [id, at] of delivered) {
      if (now - at <= keepMs) break; // in the order delivered
      delivered.delete(id);
    }
  };

  // Announced batches are read together: those announced while a read is under way, in the next one.
  const announced: number[] = [];
  let readingAnnounced = false;
  const readAnnounced = async () => {
    if (readingAnnounced) return;
    readingAnnounced = true;
    while (announced.length > 0) {
      await liveEventBatchesById(db, announced.splice(0, CATCH_UP_PAGE)).then(deliverBatches, (error: unknown) => {
        options.onError(error);
        options.onGap(); // these events are lost here: the subscribers start again
      });
    }
    readingAnnounced = false;
  };
  await db.listen(CHANNELS.liveEvents, (payload) => {
    const [id, origin] = payload.split(':');
    if (origin === instanceId || !/^\d+$/.test(id)) return;
    announced.push(Number(id));
    void readAnnounced();
  });

  /** The catch-up after a lost listening connection, if one is under way. */
  let catchingUp: Promise<void> = Promise.resolve();
  db.onListenerRestored((lostAt) => {
    catchingUp = catchingUp.then(async () => {
      if (Date.now() - lostAt.getTime() > keepMs - COMMIT_MARGIN_MS) {
        options.onGap();
        return;
      }
      try {
        const since = new Date(lostAt.getTime() - COMMIT_MARGIN_MS);
        for (let afterId = 0; ;) {
          const page = await liveEventBatchesSince(db, instanceId, since, afterId, CATCH_UP_PAGE);
          deliverBatches(page);
          if (page.length < CATCH_UP_PAGE) break;
          afterId = page[page.length - 1].id;
        }
      } catch (error) {
        options.onError(error);
        options.onGap();
      }
    });
  });

  return {
    send(event) {
      if (closed) return;
      if (pending.length >= MAX_PENDING) {
        dropped++;
        return;
      }
      pending.push(event);
      if (!sending) flushTimer ??= setTimeout(flush, flushMs);
    },
    dropped: () => dropped,
    async close() {
      closed = true;
      clearTimeout(flushTimer);
      await sending;
      await sendPending();
      await catchingUp;
    },
  };
}
