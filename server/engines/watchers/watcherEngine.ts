// The watcher engine: evaluates watchers when their devices report (event-driven: the telemetry
// writer's committed latest values, coalesced per pass) and at each watcher's interval (periodic:
// claimed across tenants with SKIP LOCKED, so several instances share them; this is also where an
// entity that stopped reporting goes "no data" and a pending watch whose time is up alerts).
// Watchers are evaluated together, in short transactions of their tenant of up to
// WATCHES_PER_TRANSACTION watches (watcher × entity), all read in one statement: the watches'
// states, the log row of each transition (and, through `onLogged`, what that row sets off in the
// same transaction), and each watcher's summary. A state changes only if it is still what was
// read, and a transition's log row has a unique key, so two instances evaluating at once write it
// once. A periodic evaluation that fails is due again a few passes later, not an interval later.
import type { Database, Tx } from '../../db/database.ts';
import {
  claimDueWatchers, dueAgainIn, evaluateWatcherBy, holdWatchers, saveWatchState, summariseWatcher, watchedEntityIds, watchersOnKeys, watchReadings,
  type WatcherRow, type WatchReading,
} from '../../db/watcherQueries.ts';
import { writeEngineLog } from '../../db/logQueries.ts';
import type { LatestChange } from '../../telemetry/telemetryWriter.ts';
import { startWorkLoop } from '../../workLoop.ts';
import { transitionLog } from './transitionLog.ts';
import { conditionHolds } from './watcherCondition.ts';
import { isAlerting, step, WATCH_STATES, type Observation, type Transition, type WatchState, type WatchStateName } from './watchState.ts';

/** Watchers claimed per pass, in all and of one tenant (a tenant with thousands cannot starve the others). */
const CLAIM_BATCH = 50;
const CLAIM_PER_TENANT = 10;
/** Watches (watcher × entity) read and evaluated in one transaction of a tenant: one statement reads them (~50 ms for 2,000). */
export const WATCHES_PER_TRANSACTION = 2_000;
/** A watcher whose periodic evaluation failed is due again after this many of the engine's passes (30 s at 5 s). */
const RETRY_AFTER_PASSES = 6;

export interface WatcherEngineOptions {
  onError(error: unknown): void;
  /** In the transition's transaction: a log row was written (notifications are queued here). */
  onLogged?(tx: Tx, tenantId: string, logIds: readonly number[]): Promise<void>;
  /** After the commit: the watcher's alert flag or trigger time changed. */
  onWatcherChanged?(tenantId: string, watcherId: number): void;
  /** After the commit: transitions were logged (deliveries may be waiting). */
  afterLogged?(): void;
  /** How often due watchers are looked for (ms). */
  everyMs?: number;
  /** Awaited between the statements of a periodic pass (server/foreground.ts). */
  yieldTo?: () => Promise<void>;
}

export interface WatcherEngine {
  /** The telemetry writer's committed latest values: the watchers on their keys evaluate soon. */
  latestChanged(change: LatestChange): void;
  stop(): Promise<void>;
}

/**
 * A watcher to evaluate on `entityIds` (those that reported, or those it watches on a periodic
 * pass). `summarise` false: a part of a watcher too big for one transaction, its summary left to
 * the last part.
 */
interface Job { watcher: WatcherRow; entityIds: number[]; summarise?: boolean }

/**
 * Whether a transition is logged without being sent (notify-off maintenance): a problem that
 * begins while a window covers the entity, and the end of a problem that began so.
 */
function mutedTransition(transition: Transition | undefined, reading: WatchReading): boolean {
  if (!transition) return false;
  if (transition === 'alert' || transition === 'no_data') return reading.notify_off;
  return reading.notify_off || !!reading.muted;
}

const stateName = (state: string): WatchStateName => (WATCH_STATES as readonly string[]).includes(state) ? state as WatchStateName : 'normal';

/** Jobs in groups of about `size` watches. */
function inGroups(jobs: Job[], size: number): Job[][] {
  const groups: Job[][] = [];
  let group: Job[] = [];
  let watches = 0;
  for (const job of jobs) {
    group.push(job);
    watches += Math.max(job.entityIds.length, 1);
    if (watches >= size) {
      groups.push(group);
      group = [];
      watches = 0;
    }
  }
  if (group.length) groups.push(group);
  return groups;
}

export function startWatcherEngine(db: Database, options: WatcherEngineOptions): WatcherEngine {
  const everyMs = options.everyMs ?? 5_000;
  /** Per tenant, per entity, its type and the keys it reported since the last pass. */
  let reported = new Map<string, Map<number, { typeId: number; keys: Set<string> }>>();

  /** One watcher's watches as read: each steps its state; a transition is logged. Periodic passes may conclude "no data". */
  const evaluateWatches = async (tx: Tx, { watcher, summarise = true }: Job, readings: WatchReading[], periodic: boolean) => {
    const now = Date.now();
    const forMs = watcher.for_seconds * 1000;
    let changed = false;
    let logged = 0;
    let lastValue: unknown = null;
    /** The earliest time a pending watch of this watcher is up: the watcher is evaluated again by then. */
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const reading of readings) {
      // a device under maintenance is left out of alarms: its watch waits where it was
      if (reading.in_maintenance) continue;
      if (reading.has_value) lastValue = reading.value;
      const previous = reading.state === null ? undefined : { state: reading.state, since: reading.since!, since_ms: reading.since_ms! };
      let observed: Observation;
      if (reading.has_value) observed = { holds: conditionHolds(watcher.condition, reading.value as never, now) };
      else if (periodic && reading.reports) {
        // "no data" takes a whole interval of being watched: a new watch starts counting now
        if (!previous) {
          await saveWatchState(tx, { tenantId: watcher.tenant_id, watcherId: watcher.id, entityId: reading.entity_id, state: 'normal', since: new Date(now).toISOString(), value: null });
          continue;
        }
        if (previous.state === 'normal' && now - previous.since_ms < watcher.interval * 1000) continue;
        observed = 'no_data';
      } else continue; // never reported the key, or an event pass (data just came)
      const current: WatchState = previous ? { state: stateName(previous.state), since: previous.since_ms } : { state: 'normal', since: now };
      const { next, transition } = step(current, observed, now, forMs);
      if (next.state === 'pending') wakeAt = Math.min(wakeAt, next.since + forMs);
      if (next === current) continue;
      const since = new Date(next.since).toISOString();
      const muted = mutedTransition(transition, reading);
      const saved = await saveWatchState(tx, {
        tenantId: watcher.tenant_id, watcherId: watcher.id, entityId: reading.entity_id,
        previous: previous && { state: previous.state, since: previous.since }, state: next.state, since, value: reading.value,
        muted: isAlerting(next.state) && (transition ? muted : !!reading.muted),
      });
      if (!saved) continue; // another instance moved this watch meanwhile
      changed = true;
      if (!transition) continue;
      const logId = await writeEngineLog(tx, transitionLog(watcher, { id: reading.entity_id, name: reading.name }, transition, reading.value, since, muted));
      if (logId === undefined) continue;
      logged += 1;
      if (!muted) await options.onLogged?.(tx, watcher.tenant_id, [logId]);
    }
    // also when nothing changed: a claim may just have moved the next evaluation an interval on
    if (wakeAt < Number.POSITIVE_INFINITY) await evaluateWatcherBy(tx, watcher.id, new Date(wakeAt).toISOString());
    const summary = summarise && (changed || periodic) ? await summariseWatcher(tx, watcher.id, lastValue) : undefined;
    return { logged, summaryChanged: !!summary?.changed };
  };

  /** Jobs of one tenant inside `tx` (those whose watcher still exists): their watches read in one statement, then evaluated watcher by watcher. */
  const evaluateIn = async (tx: Tx, tenantId: string, given: Job[], periodic: boolean) => {
    const outcome = { tenantId, changedWatchers: [] as number[], logged: 0 };
    if (!given.length) return outcome;
    const existing = await holdWatchers(tx, [...new Set(given.map((job) => job.watcher.id))]);
    const jobs = given.filter((job) => existing.has(job.watcher.id));
    const watches = jobs.flatMap((job) => job.entityIds.map((entityId) => ({ watcher: job.watcher, entityId })));
    const byWatcher = new Map<number, WatchReading[]>();
    for (const reading of await watchReadings(tx, tenantId, watches)) {
      let list = byWatcher.get(reading.watcher_id);
      if (!list) byWatcher.set(reading.watcher_id, list = []);
      list.push(reading);
    }
    for (const job of jobs) {
      const result = await evaluateWatches(tx, job, byWatcher.get(job.watcher.id) ?? [], periodic);
      outcome.logged += result.logged;
      if (result.summaryChanged) outcome.changedWatchers.push(job.watcher.id);
    }
    return outcome;
  };

  /** After the commit: what the evaluations changed is told. */
  const committed = ({ tenantId, changedWatchers, logged }: Awaited<ReturnType<typeof evaluateIn>>) => {
    for (const watcherId of changedWatchers) options.onWatcherChanged?.(tenantId, watcherId);
    if (logged) options.afterLogged?.();
  };

  /**
   * Jobs of one tenant, a group of about WATCHES_PER_TRANSACTION watches per transaction. A group
   * that fails ends an event pass; in a periodic pass it is given to `failed` and the others go on.
   */
  const evaluate = async (tenantId: string, jobs: Job[], periodic: boolean, failed?: (watchers: WatcherRow[], error: unknown) => Promise<void>) => {
    for (const group of inGroups(jobs, WATCHES_PER_TRANSACTION)) {
      try {
        if (periodic) await options.yieldTo?.();
        committed(await db.tenantTx(tenantId, (tx) => evaluateIn(tx, tenantId, group, periodic)));
      } catch (error) {
        if (!failed) throw error;
        await failed(group.map((job) => job.watcher), error);
      }
    }
  };

  /**
   * Watchers whose periodic evaluation failed (a statement cut off, a connection lost): their
   * claim moved them a whole interval on, so they are due again after RETRY_AFTER_PASSES passes
   * instead. The failure is reported; the pass goes on with the other watchers.
   */
  const retryLater = async (watchers: WatcherRow[], error: unknown) => {
    options.onError(error);
    const ids = [...new Set(watchers.map((watcher) => watcher.id))];
    await dueAgainIn(db, ids, RETRY_AFTER_PASSES * everyMs).catch(options.onError);
  };

  /** A watcher on every entity it watches, in parts of WATCHES_PER_TRANSACTION (each in its own transaction), its summary made by the last. */
  const periodicJobs = async (watcher: WatcherRow): Promise<Job[]> => {
    const entityIds = await watchedEntityIds(db, watcher, options.yieldTo);
    if (entityIds.length <= WATCHES_PER_TRANSACTION) return [{ watcher, entityIds }];
    const parts: Job[] = [];
    for (let from = 0; from < entityIds.length; from += WATCHES_PER_TRANSACTION) {
      parts.push({ watcher, entityIds: entityIds.slice(from, from + WATCHES_PER_TRANSACTION), summarise: from + WATCHES_PER_TRANSACTION >= entityIds.length });
    }
    return parts;
  };

  /** Which watchers to evaluate on which of the entities that reported: only those they watch that reported their key. */
  const reportedJobs = (watchers: WatcherRow[], entities: Map<number, { typeId: number; keys: Set<string> }>): Job[] => {
    const jobs: Job[] = [];
    for (const watcher of watchers) {
      const { key } = watcher.query;
      const ids = watcher.entity_ids ?? [];
      const types = new Set(watcher.entity_type_ids ?? []);
      const reportedKey = (entityId: number) => entities.get(entityId)?.keys.has(key) ?? false;
      const entityIds = [
        ...ids.filter(reportedKey),
        ...(types.size || !ids.length ? [...entities].filter(([entityId, entity]) => !ids.includes(entityId) && (!types.size || types.has(entity.typeId)) && reportedKey(entityId)).map(([entityId]) => entityId) : []),
      ];
      if (entityIds.length) jobs.push({ watcher, entityIds });
    }
    return jobs;
  };

  /**
   * The watchers on the keys each tenant's entities reported, evaluated on those entities. The
   * watchers are found in the transaction that evaluates the first group: under a flood of
   * values each transaction waits for the writer's, so a pass is as few of them as can be.
   */
  const evaluateReported = async () => {
    const batch = reported;
    reported = new Map();
    for (const [tenantId, entities] of batch) {
      const keys = new Set<string>();
      for (const entity of entities.values()) for (const key of entity.keys) keys.add(key);
      let rest: Job[][] = [];
      committed(await db.tenantTx(tenantId, async (tx) => {
        const [first = [], ...others] = inGroups(reportedJobs(await watchersOnKeys(tx, tenantId, [...keys]), entities), WATCHES_PER_TRANSACTION);
        rest = others;
        return evaluateIn(tx, tenantId, first, false);
      }));
      for (const group of rest) await evaluate(tenantId, group, false);
    }
  };

  /**
   * Due watchers of each tenant, evaluated on all their entities: the watchers' jobs gathered until
   * they fill a transaction, then evaluated, so that the entities of one watcher at a time are
   * held (a tenant's watchers of a million lamps each would otherwise be millions of ids at once).
   */
  const evaluateDue = async (due: WatcherRow[]) => {
    const byTenant = new Map<string, WatcherRow[]>();
    for (const watcher of due) {
      let watchers = byTenant.get(watcher.tenant_id);
      if (!watchers) byTenant.set(watcher.tenant_id, watchers = []);
      watchers.push(watcher);
    }
    for (const [tenantId, watchers] of byTenant) {
      let gathered: Job[] = [];
      let watches = 0;
      for (const watcher of watchers) {
        let jobs: Job[];
        try {
          jobs = await periodicJobs(watcher);
        } catch (error) {
          await retryLater([watcher], error);
          continue;
        }
        for (const job of jobs) {
          gathered.push(job);
          watches += job.entityIds.length;
        }
        if (watches < WATCHES_PER_TRANSACTION) continue;
        await evaluate(tenantId, gathered, true, retryLater);
        gathered = [];
        watches = 0;
      }
      if (gathered.length) await evaluate(tenantId, gathered, true, retryLater);
    }
  };

  const loop = startWorkLoop({
    everyMs,
    onError: options.onError,
    work: async () => {
      if (reported.size) await evaluateReported();
      const due = await claimDueWatchers(db, CLAIM_BATCH, CLAIM_PER_TENANT);
      await evaluateDue(due);
      // straight on while any were due: the per-tenant cap makes a pass partial, not the last
      return due.length > 0 || reported.size > 0;
    },
  });

  return {
    latestChanged(change) {
      let entities = reported.get(change.tenantId);
      if (!entities) reported.set(change.tenantId, entities = new Map());
      let entity = entities.get(change.entityId);
      if (!entity) entities.set(change.entityId, entity = { typeId: change.entityTypeId, keys: new Set() });
      for (const key of Object.keys(change.values)) entity.keys.add(key);
      loop.wake();
    },
    stop: () => loop.stop(),
  };
}
