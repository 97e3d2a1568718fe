// KPI answers shared by everyone who would get the same answer (docs/api.md "KPI data"): a control
// room's two hundred screens polling one dashboard cost one computation per answer and freshness
// window, not one per screen. The key is the caller's tenant and what they may see of the KPI
// model (resourceAccess.ts `visibilityKey`) with the request's own parameters; everything else the
// answer depends on is the tenant's stored data, so:
// - an answer is reused for as long as its KPI's refresh interval (`definition.refresh_interval`:
//   its charts poll no faster), from 1 s to MAX_FRESH_MS, FRESH_MS when it has none: a poll sees
//   points at most that late, and the moving range moves on;
// - a change of what answers read besides points — a KPI, a maintenance window, an entity (which
//   of a type there are), a group (whom a window covers): KPI_ANSWER_MODELS — drops the tenant's
//   answers at once on this instance (the commit events); another instance's answers are at most
//   that old. The caller's permissions are checked on every request, before the cache is asked;
// - a computation under way is shared: who asks meanwhile waits for it, and waiting costs none of
//   the caller's read budget (the budget still bounds the different computations a user starts);
// - an answer still asked for near the end of its freshness is computed again ahead of it
//   (`refreshLead`), under the asker's budget, while the kept one keeps answering: the screens of a
//   busy dashboard never wait for its next answer, and none is older than its freshness allows;
// - failures are not kept: a computation refused by its starter's budget is started again by a
//   waiter under its own;
// - bounded: at most MAX_POINTS points kept over all answers, each answer counted ENTRY_POINTS more
//   for what it holds besides (so that many empty answers are as bounded as a few full ones), the
//   answer stored longest ago goes first.
import { ApiError } from '../errors.ts';
import type { PostCommitBus } from '../events/postCommit.ts';
import type { ClosedBuckets } from './closedBuckets.ts';
import { weighedStore } from './weighedStore.ts';

/** How long an answer of a KPI without a refresh interval is reused; one with is reused that long, within 1 s and MAX_FRESH_MS. */
export const FRESH_MS = 5_000;
export const MAX_FRESH_MS = 60_000;
/** How long an answer of a KPI refreshed every `seconds` is reused. */
export const freshFor = (seconds: number | undefined) => (seconds ? Math.min(MAX_FRESH_MS, Math.max(1_000, seconds * 1_000)) : FRESH_MS);
/** The models whose records an answer reads (the rest of the tenant's changes leave answers be). */
export const KPI_ANSWER_MODELS: ReadonlySet<string> = new Set(['kpi', 'maintenance_window', 'entity', 'group']);
/** Points kept at most, over all answers (~50 bytes each). */
export const MAX_POINTS = 2_000_000;
/** What an answer holds besides its points (its key, range, series' names), in points. */
export const ENTRY_POINTS = 50;

/** The shortest time ahead of its end that an answer still asked for is computed again. */
export const MIN_LEAD_MS = 500;
/**
 * How long before the end of its freshness an answer is computed again when asked for: thrice its
 * last computation, at least MIN_LEAD_MS, at most a quarter of its freshness (so a busy answer
 * costs at most a third more computations than one computed when it ends).
 */
export const refreshLead = (freshMs: number, computeMs: number) => Math.min(freshMs / 4, Math.max(MIN_LEAD_MS, 3 * computeMs));

interface Stored<T> { answer: T; storedAt: number; freshMs: number; version: number; computeMs: number }

/** A computed answer, and how long it may be reused (`freshFor`). */
export interface Computed<T> { answer: T; freshMs: number }

export interface KpiAnswerCache<T> {
  /** The answer under `key` of the tenant: kept and fresh, being computed (waited for), or computed now by `compute`. */
  answer(tenantId: string, key: string, compute: () => Promise<Computed<T>>): Promise<T>;
  invalidate(tenantId: string): void;
}

/** `pointsOf` counts what an answer holds (its memory). */
export function kpiAnswerCache<T>(pointsOf: (answer: T) => number, now = () => Date.now()): KpiAnswerCache<T> {
  /** By tenant and key, weighed in points. */
  const stored = weighedStore<Stored<T>>(MAX_POINTS);
  const computing = new Map<string, { version: number; answer: Promise<Computed<T>> }>();
  const versions = new Map<string, number>();
  const version = (tenantId: string) => versions.get(tenantId) ?? 0;
  const keep = (tenantId: string, key: string, { answer, freshMs }: Computed<T>, versionAtStart: number, computeMs: number) => {
    if (version(tenantId) !== versionAtStart) return; // what it read changed while it was computed
    const held = pointsOf(answer);
    if (held > MAX_POINTS / 4) return;
    stored.set(tenantId, key, { answer, storedAt: now(), freshMs, version: versionAtStart, computeMs }, held + ENTRY_POINTS);
  };
  /** Computes the answer under `key`, shared with whoever asks meanwhile, and keeps it. */
  const start = (tenantId: string, key: string, compute: () => Promise<Computed<T>>, versionAtStart: number): Promise<Computed<T>> => {
    const startedAt = now();
    const answer = compute();
    const own = { version: versionAtStart, answer };
    computing.set(key, own);
    const settled = () => { if (computing.get(key) === own) computing.delete(key); };
    answer.then((result) => {
      settled();
      keep(tenantId, key, result, versionAtStart, now() - startedAt);
    }, settled);
    return answer;
  };
  /** The computation of the current version under way, if any. */
  const underWay = (key: string, current: number) => {
    const shared = computing.get(key);
    return shared && shared.version === current ? shared.answer : undefined;
  };

  const cache: KpiAnswerCache<T> = {
    async answer(tenantId, tenantKey, compute) {
      const key = `${tenantId}\u0000${tenantKey}`;
      const current = version(tenantId);
      const entry = stored.get(key);
      const age = entry && entry.version === current ? now() - entry.storedAt : Infinity;
      if (entry && age < entry.freshMs) {
        if (age >= entry.freshMs - refreshLead(entry.freshMs, entry.computeMs) && !underWay(key, current)) {
          // a refresh that fails leaves the kept answer to its end; who asks then computes and meets the failure
          start(tenantId, key, compute, current).catch(() => {});
        }
        return entry.answer;
      }
      stored.delete(key);
      const shared = underWay(key, current);
      if (shared) {
        try {
          return (await shared).answer;
        } catch (error) {
          // its starter's budget refused it: this caller computes under its own
          if (error instanceof ApiError && error.statusCode === 429) return cache.answer(tenantId, tenantKey, compute);
          throw error;
        }
      }
      return (await start(tenantId, key, compute, current)).answer;
    },
    invalidate(tenantId) {
      versions.set(tenantId, (versions.get(tenantId) ?? 0) + 1);
      stored.clear(tenantId);
    },
  };
  return cache;
}

/** Drops a tenant's answers and kept buckets on each commit of a record they read; stored points drop the buckets they reach. */
export function invalidatedByChanges(events: PostCommitBus, answers: KpiAnswerCache<unknown>, buckets: ClosedBuckets) {
  events.on('resource.changed', 'KPI answers', ({ tenantId, change }) => {
    if (!KPI_ANSWER_MODELS.has(change.resource)) return;
    answers.invalidate(tenantId);
    buckets.forget(tenantId);
  });
  events.on('telemetry.stored', 'KPI buckets kept', ({ batches }) => buckets.stored(batches));
}
