// The closed buckets of KPI answers, kept for the next poll (docs/api.md "KPI data"): a chart of
// the last 30 days polled every 10 s reads its 720 hours again each time, though only the last one
// can have changed. An answer's series are kept with the instant before which they are final
// (`closedUntil`); the next computation of the same KPI, for a caller alike, reads only from there
// on and takes the rest from here. A wrong answer is worse than a slow one, so:
// - only buckets that ended SETTLE_MS before the computation began are final, and only while no
//   point was stored before their end since it began: the telemetry writer tells every stored
//   batch's earliest instant per tenant ('telemetry.stored'), which drops what it touches; another
//   instance tells the points it stores LATE_SHARED_MS late or more (server/live/clusterWiring.ts),
//   and any later ones land after the buckets kept (instances' clocks within that of each other);
// - series are kept under a shape — the zone, the bucket width, each item's key and aggregation and
//   the entities read — and reused only for the same shape: an entity added, a device in
//   maintenance or an edited query reads afresh; a commit of what answers read drops the tenant's;
// - the caller decides what is reused at all: ranges reaching into data that retention may drop
//   are read whole each time (server/telemetry/kpiData.ts);
// - a signal lost between instances (a batch of events that could not be sent) is not trusted to
//   be rare: series are read whole again at least every MAX_KEPT_MS;
// - bounded: at most MAX_KEPT_POINTS points over all series, each kept key counted ENTRY_POINTS and
//   each series SERIES_POINTS more (many tiny ones are as bounded as a few long ones), the one kept
//   longest ago goes first.
import type { StoredSince } from '../telemetry/telemetryWriter.ts';
import { weighedStore } from './weighedStore.ts';

/** How long after a bucket's end its points are taken as all there (ms). */
export const SETTLE_MS = 60_000;
/** Points stored at least this late (ms) are told to the other instances. */
export const LATE_SHARED_MS = SETTLE_MS / 2;
/** How long series are reused at most before they are read whole again (ms). */
export const MAX_KEPT_MS = 10 * 60_000;
/** Points kept at most, over all series (16 bytes each). */
export const MAX_KEPT_POINTS = 2_000_000;
/** What a kept key and each of its series hold besides their points, in points. */
export const ENTRY_POINTS = 50;
export const SERIES_POINTS = 8;

/** A bucket's start (ms) and value. */
export type BucketPoint = [at: number, value: number];
/** A range's points per series (`item:entity`), in time order. */
export type SeriesPoints = Map<string, BucketPoint[]>;

/** A computation's watch over the points stored while it runs: the earliest instant seen. */
export interface StoreWatch { earliest: number }

interface Kept { shape: string; from: number; closedUntil: number; series: Map<string, Float64Array>; keptAt: number }

export interface ClosedBuckets {
  /** Watches the tenant's stored points from now on, for a computation starting. */
  watch(tenantId: string): StoreWatch;
  /** The kept series under `key` for this shape: final from `from` until `closedUntil`, first read whole at `keptAt`. */
  kept(tenantId: string, key: string, shape: string): { from: number; closedUntil: number; series: SeriesPoints; keptAt: number } | undefined;
  /**
   * Keeps `series` (the points before `closedUntil` of those read from `from`) unless points stored
   * since `watch` began reach before that; `keptAt`: when they were last read whole (now when not
   * given). Ends the watch.
   */
  keep(tenantId: string, key: string, shape: string, from: number, closedUntil: number, series: SeriesPoints, watch: StoreWatch, keptAt?: number): void;
  /** Ends a watch without keeping anything (the computation failed). */
  unwatch(tenantId: string, watch: StoreWatch): void;
  /** Points were stored: what they reach is no longer final. */
  stored(batches: readonly StoredSince[]): void;
  /** Forgets the tenant's series (every tenant's without one). */
  forget(tenantId?: string): void;
  /** Points kept (tests). */
  size(): number;
}

export function closedBuckets(now = Date.now, maxPoints = MAX_KEPT_POINTS): ClosedBuckets {
  /** By tenant and key, weighed in points. */
  const kept = weighedStore<Kept>(maxPoints);
  const watches = new Map<string, Set<StoreWatch>>();
  const unwatch = (tenantId: string, watch: StoreWatch) => {
    const own = watches.get(tenantId);
    own?.delete(watch);
    if (own && !own.size) watches.delete(tenantId);
  };

  return {
    watch(tenantId) {
      const watch = { earliest: Number.POSITIVE_INFINITY };
      let own = watches.get(tenantId);
      if (!own) watches.set(tenantId, own = new Set());
      own.add(watch);
      return watch;
    },

    kept(tenantId, key, shape) {
      const entry = kept.get(`${tenantId}\u0000${key}`);
      if (!entry || entry.shape !== shape || now() - entry.keptAt >= MAX_KEPT_MS) return undefined;
      const series: SeriesPoints = new Map();
      for (const [name, flat] of entry.series) {
        const list: BucketPoint[] = [];
        for (let at = 0; at < flat.length; at += 2) list.push([flat[at], flat[at + 1]]);
        series.set(name, list);
      }
      return { from: entry.from, closedUntil: entry.closedUntil, series, keptAt: entry.keptAt };
    },

    keep(tenantId, key, shape, from, closedUntil, series, watch, keptAt) {
      unwatch(tenantId, watch);
      const full = `${tenantId}\u0000${key}`;
      kept.delete(full);
      if (watch.earliest < closedUntil || closedUntil <= from) return;
      const flats = new Map<string, Float64Array>();
      let size = ENTRY_POINTS + SERIES_POINTS * series.size;
      for (const [name, list] of series) {
        const closed = list.filter(([at]) => at < closedUntil);
        const flat = new Float64Array(closed.length * 2);
        closed.forEach(([at, value], index) => { flat[2 * index] = at; flat[2 * index + 1] = value; });
        flats.set(name, flat);
        size += closed.length;
      }
      if (size > maxPoints / 4) return;
      kept.set(tenantId, full, { shape, from, closedUntil, series: flats, keptAt: keptAt ?? now() }, size);
    },

    unwatch,

    stored(batches) {
      for (const { tenantId, from } of batches) {
        for (const watch of watches.get(tenantId) ?? []) watch.earliest = Math.min(watch.earliest, from);
        for (const key of kept.keysOf(tenantId)) if (from < kept.get(key)!.closedUntil) kept.delete(key);
      }
    },

    forget: (tenantId) => kept.clear(tenantId),

    size: () => kept.weight(),
  };
}
