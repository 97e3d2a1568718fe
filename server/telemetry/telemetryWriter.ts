// The one way telemetry reaches the database: MQTT, HTTP, CSV import and the demo backfill all
// hand their points to this writer. It queues them (bounded), writes each batch in one statement
// that inserts the raw points and updates the latest values, folding into the roll-ups only the
// points that arrive behind the folder's line (server/db/telemetryBatchQueries.ts), and
// resolves each caller's promise only after that statement committed — so an MQTT PUBACK or an
// HTTP 200 means "stored". While the queue is full, `enqueue` waits: callers stop reading from
// their sockets and the flood waits in the kernel's buffers, not in our memory.
import type { Database } from '../db/database.ts';
import { insertTelemetryBatch, type LatestRow } from '../db/telemetryBatchQueries.ts';
import { ensureTelemetryPartition } from '../db/telemetryMaintenanceQueries.ts';
import { pointRow, storedValue, type TelemetryPoint, type TelemetryValue } from './telemetryPoint.ts';

export interface WriterLimits {
  /** Points waiting or being written, at most (enqueue waits beyond it). */
  maxQueuedPoints: number;
  /** Points per statement, at most. */
  maxBatchPoints: number;
  /** How long a small batch waits for more points (ms). */
  lingerMs: number;
}

export const DEFAULT_WRITER_LIMITS: WriterLimits = { maxQueuedPoints: 100_000, maxBatchPoints: 5_000, lingerMs: 5 };

/** The earliest instant of the points a committed batch stored for a tenant. */
export interface StoredSince { tenantId: string; from: number }

/** A value that became a device's latest, for live subscribers. */
export interface LatestChange { tenantId: string; entityId: number; entityTypeId: number; values: Record<string, { ts: number; value: TelemetryValue | null }> }

export interface WriteTicket {
  /**
   * Resolves when every point is in the database: stored now, or already there with the same
   * entity, key and ts (the first value stored for a moment is kept).
   */
  committed: Promise<void>;
}

export interface TelemetryWriter {
  /** Queues the points once there is room; the ticket's promise settles when they are committed. */
  enqueue(points: TelemetryPoint[]): Promise<WriteTicket>;
  /** Queues and waits for the commit. */
  write(points: TelemetryPoint[]): Promise<void>;
  /** newPoints: rows inserted (duplicates of stored points not counted). */
  stats(): { queuedPoints: number; newPoints: number; batches: number; failedPoints: number };
  /**
   * Refuses more and writes what is queued, for at most `drainMs`: what is still queued then is
   * given up (its callers' promises reject; nothing of it was acknowledged).
   */
  close(drainMs?: number): Promise<void>;
}

interface Pending { points: TelemetryPoint[]; resolve(): void; reject(error: unknown): void; failed?: boolean }

const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

function latestChanges(rows: LatestRow[]): LatestChange[] {
  const byEntity = new Map<number, LatestChange>();
  for (const row of rows) {
    let change = byEntity.get(row.entity_id);
    if (!change) {
      change = { tenantId: row.tenant_id, entityId: row.entity_id, entityTypeId: row.entity_type_id, values: {} };
      byEntity.set(row.entity_id, change);
    }
    change.values[row.key] = { ts: row.ms, value: storedValue(row) };
  }
  return [...byEntity.values()];
}

/** The earliest instant of a batch's points that were stored, per tenant. */
function earliestPerTenant(batch: Pending[]): StoredSince[] {
  const earliest = new Map<string, number>();
  for (const pending of batch) {
    if (pending.failed) continue;
    for (const { tenantId, ts } of pending.points) {
      const known = earliest.get(tenantId);
      if (known === undefined || ts < known) earliest.set(tenantId, ts);
    }
  }
  return [...earliest].map(([tenantId, from]) => ({ tenantId, from }));
}

export interface WriterOptions {
  limits?: Partial<WriterLimits>;
  /** Called after each commit with the latest values that changed. */
  onLatest?(changes: LatestChange[]): void;
  /** A batch was committed: the earliest instant of its points, per tenant (what an answer of their range reads changed). */
  onStored?(batches: StoredSince[]): void;
  /** A batch that failed (its callers' promises reject with the error). */
  onError?(error: unknown): void;
  /**
   * Whether the database cannot take writes now (the embedded database's disk is nearly full):
   * batches wait, the queue fills, and the MQTT listener stops reading, until it can.
   */
  isBlocked?(): Promise<boolean>;
}

/** Batches sent at once: one being written, the next waiting behind it. */
const MAX_BATCHES_SENT = 2;

/** How often a blocked writer looks again. */
const BLOCKED_RECHECK_MS = 1000;

export function telemetryWriter(db: Database, options: WriterOptions = {}): TelemetryWriter {
  const limits = { ...DEFAULT_WRITER_LIMITS, ...options.limits };
  const queue: Pending[] = [];
  // Callers waiting for room, first come first served; `admitted` counts the points of those woken
  // but not yet queued, so that a commit wakes only as many as fit (not every waiter, each to find
  // no room and wait again: that was quadratic under a flood).
  const roomWaiters: { size: number; wake(): void }[] = [];
  let firstWaiter = 0;
  let admitted = 0;
  const partitions = new Map<string, Promise<void>>();
  let queuedPoints = 0;
  /** Points of the batches sent and not yet committed (part of queuedPoints). */
  let sentPoints = 0;
  let newPoints = 0;
  let failedPoints = 0;
  let batches = 0;
  let writing: Promise<void> | undefined;
  let closed = false;
  /** Closing ran out of time: the batches not yet begun are given up. */
  let givenUp = false;

  const wakeWaiters = () => {
    while (firstWaiter < roomWaiters.length && queuedPoints + admitted < limits.maxQueuedPoints) {
      const waiter = roomWaiters[firstWaiter++];
      admitted += waiter.size;
      waiter.wake();
    }
    if (firstWaiter === roomWaiters.length) {
      roomWaiters.length = 0;
      firstWaiter = 0;
    } else if (firstWaiter > 1024) {
      roomWaiters.splice(0, firstWaiter);
      firstWaiter = 0;
    }
  };

  /** Each month's partition is made once, however many batches need it at the same time. */
  async function ensurePartitions(points: TelemetryPoint[]) {
    const months = new Set<string>();
    for (const point of points) months.add(monthOf(point.ts));
    for (const month of months) {
      let made = partitions.get(month);
      if (!made) {
        made = ensureTelemetryPartition(db, Date.parse(`${month}-01T00:00:00Z`));
        made.catch(() => partitions.delete(month)); // tried again by the next batch
        partitions.set(month, made);
      }
      await made;
    }
  }

  async function writeBatch(batch: Pending[]) {
    const points = batch.flatMap((pending) => pending.points);
    await ensurePartitions(points);
    return insertTelemetryBatch(db, JSON.stringify(points.map(pointRow)));
  }

  /** Writes one batch; when it fails, each message alone, so one bad message cannot sink the others. */
  async function writeIsolated(batch: Pending[]): Promise<LatestRow[]> {
    try {
      const { stored, latest } = await writeBatch(batch);
      newPoints += stored;
      return latest;
    } catch (error) {
      if (batch.length === 1) throw error;
      const latest: LatestRow[] = [];
      for (const pending of batch) {
        try {
          latest.push(...await writeIsolated([pending]));
        } catch (single) {
          pending.failed = true;
          failedPoints += pending.points.length;
          pending.reject(single);
          options.onError?.(single);
        }
      }
      return latest;
    }
  }

  /** Writes one batch and settles its callers. */
  async function commit(batch: Pending[], size: number) {
    try {
      const latest = await writeIsolated(batch);
      batches++;
      for (const pending of batch) if (!pending.failed) pending.resolve();
      if (latest.length) options.onLatest?.(latestChanges(latest));
      if (options.onStored) options.onStored(earliestPerTenant(batch));
    } catch (error) {
      failedPoints += size;
      for (const pending of batch) pending.reject(error);
      options.onError?.(error);
    } finally {
      queuedPoints -= size;
      sentPoints -= size;
      wakeWaiters();
    }
  }

  /**
   * Sends batches until the queue is empty. While one is written, the next is sent as soon as half
   * a batch waits, so the database finds it ready when the first is done (the embedded database
   * runs them one after the other, on a thread of its own, while this one gathers the next).
   */
  async function drain() {
    const sent = new Set<Promise<void>>();
    while (queue.length || sent.size) {
      if (givenUp) {
        const error = new Error('The telemetry writer closed before these points could be written');
        for (const pending of queue.splice(0)) pending.reject(error);
        queuedPoints = sentPoints;
        await Promise.all(sent);
        break;
      }
      const waiting = queuedPoints - sentPoints;
      if (!queue.length || sent.size >= MAX_BATCHES_SENT || (sent.size > 0 && waiting < limits.maxBatchPoints / 2)) {
        await Promise.race(sent);
        continue;
      }
      // A short wait while the queue is small lets a batch gather: fewer, larger statements.
      if (!sent.size && waiting < limits.maxBatchPoints && limits.lingerMs > 0) await new Promise((resolve) => setTimeout(resolve, limits.lingerMs));
      while (!closed && await options.isBlocked?.()) await new Promise((resolve) => setTimeout(resolve, BLOCKED_RECHECK_MS));
      const batch: Pending[] = [];
      let size = 0;
      while (queue.length && (batch.length === 0 || size + queue[0].points.length <= limits.maxBatchPoints)) {
        const next = queue.shift()!;
        size += next.points.length;
        batch.push(next);
      }
      sentPoints += size;
      const written: Promise<void> = commit(batch, size).finally(() => sent.delete(written));
      sent.add(written);
    }
    writing = undefined;
  }

  const enqueue = async (points: TelemetryPoint[]): Promise<WriteTicket> => {
    if (!closed && (queuedPoints + admitted >= limits.maxQueuedPoints || firstWaiter < roomWaiters.length)) {
      await new Promise<void>((wake) => roomWaiters.push({ size: points.length, wake }));
      admitted -= points.length;
    }
    if (closed) throw new Error('The telemetry writer is closed');
    let pending!: Pending;
    const committed = new Promise<void>((resolve, reject) => {
      pending = { points, resolve, reject };
    });
    // A caller that does not wait for the outcome (QoS 0) must not turn a failure into an
    // unhandled rejection: failures are counted and reported through onError.
    committed.catch(() => {});
    if (points.length === 0) {
      pending.resolve();
      return { committed };
    }
    queue.push(pending);
    queuedPoints += points.length;
    writing ??= drain();
    return { committed };
  };

  return {
    enqueue,
    async write(points) {
      return (await enqueue(points)).committed;
    },
    stats: () => ({ queuedPoints, newPoints, batches, failedPoints }),
    async close(drainMs = Number.POSITIVE_INFINITY) {
      closed = true;
      for (const waiter of roomWaiters.slice(firstWaiter)) {
        admitted += waiter.size;
        waiter.wake();
      }
      roomWaiters.length = 0;
      firstWaiter = 0;
      const timer = Number.isFinite(drainMs) ? setTimeout(() => (givenUp = true), drainMs) : undefined;
      await writing;
      clearTimeout(timer);
    },
  };
}
