// The watcher engine: evaluates watchers when their devices report (event-driven: the telemetry
// writer's committed latest values, coalesced per pass) and at each watcher's interval (periodic:
// claimed across tenants with SKIP LOCKED, so several instances share them; this is also where an
// entity that stopped reporting goes "no data" and a pending watch whose time is up alerts).
// Each watcher is evaluated in a short transaction of its tenant: the watches' states, the log row
// of each transition (and, through `onLogged`, what that row sets off in the same transaction),
// and the watcher's summary. A state changes only if it is still what was read, and a transition's
// log row has a unique key, so two instances evaluating at once write it once.
import type { Database, Tx } from '../../db/database.ts';
import {
  claimDueWatchers, entityValues, evaluateWatcherBy, saveWatchState, summariseWatcher, watchedEntities, watchersOnKeys, watchStates,
  type WatcherRow,
} from '../../db/watcherQueries.ts';
import { writeEngineLog } from '../../db/logQueries.ts';
import type { LatestChange } from '../../telemetry/telemetryWriter.ts';
import { startWorkLoop } from '../../workLoop.ts';
import { transitionLog } from './transitionLog.ts';
import { conditionHolds } from './watcherCondition.ts';
import { step, WATCH_STATES, type Observation, type WatchState, type WatchStateName } from './watchState.ts';

/** Watchers claimed per pass, in all and of one tenant (a tenant with thousands cannot starve the others). */
const CLAIM_BATCH = 50;
const CLAIM_PER_TENANT = 10;

export interface WatcherEngineOptions {
  onError(error: unknown): void;
  /** In the transition's transaction: a log row was written (notifications are queued here). */
  onLogged?(tx: Tx, tenantId: string, logId: number): Promise<void>;
  /** After the commit: the watcher's alert flag or trigger time changed. */
  onWatcherChanged?(tenantId: string, watcherId: number): void;
  /** After the commit: transitions were logged (deliveries may be waiting). */
  afterLogged?(): void;
  /** How often due watchers are looked for (ms). */
  everyMs?: number;
}

export interface WatcherEngine {
  /** The telemetry writer's committed latest values: the watchers on their keys evaluate soon. */
  latestChanged(change: LatestChange): void;
  stop(): Promise<void>;
}

const stateName = (state: string): WatchStateName => (WATCH_STATES as readonly string[]).includes(state) ? state as WatchStateName : 'normal';

export function startWatcherEngine(db: Database, options: WatcherEngineOptions): WatcherEngine {
  /** Per tenant, per entity, its type and the keys it reported since the last pass. */
  let reported = new Map<string, Map<number, { typeId: number; keys: Set<string> }>>();

  /** Evaluates `watcher` on its entities (narrowed to `only`); periodic passes may conclude "no data". */
  const evaluate = async (watcher: WatcherRow, only: number[] | undefined, periodic: boolean) => {
    let logged = 0;
    const summary = await db.tenantTx(watcher.tenant_id, async (tx) => {
      const entities = await watchedEntities(tx, watcher, only);
      if (!entities.length) return periodic ? summariseWatcher(tx, watcher.id, null) : undefined;
      const ids = entities.map((entity) => entity.id);
      const [values, states] = await Promise.all([entityValues(tx, watcher, ids), watchStates(tx, watcher.id, ids)]);
      const stored = new Map(states.map((state) => [state.entity_id, state]));
      const named = new Map(entities.map((entity) => [entity.id, entity]));
      const now = Date.now();
      const forMs = watcher.for_seconds * 1000;
      let changed = false;
      let lastValue: unknown = null;
      /** The earliest time a pending watch of this watcher is up: the watcher is evaluated again by then. */
      let wakeAt = Number.POSITIVE_INFINITY;
      for (const reading of values) {
        if (reading.has_value) lastValue = reading.value;
        const previous = stored.get(reading.entity_id);
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
        const saved = await saveWatchState(tx, {
          tenantId: watcher.tenant_id, watcherId: watcher.id, entityId: reading.entity_id,
          previous: previous && { state: previous.state, since: previous.since }, state: next.state, since, value: reading.value,
        });
        if (!saved) continue; // another instance moved this watch meanwhile
        changed = true;
        if (!transition) continue;
        const logId = await writeEngineLog(tx, transitionLog(watcher, named.get(reading.entity_id)!, transition, reading.value, since));
        if (logId === undefined) continue;
        logged += 1;
        await options.onLogged?.(tx, watcher.tenant_id, logId);
      }
      // also when nothing changed: a claim may just have moved the next evaluation an interval on
      if (wakeAt < Number.POSITIVE_INFINITY) await evaluateWatcherBy(tx, watcher.id, new Date(wakeAt).toISOString());
      return changed || periodic ? summariseWatcher(tx, watcher.id, lastValue) : undefined;
    });
    if (summary?.changed) options.onWatcherChanged?.(watcher.tenant_id, watcher.id);
    if (logged) options.afterLogged?.();
  };

  /** The watchers on the keys each tenant's entities reported, evaluated on those entities. */
  const evaluateReported = async () => {
    const batch = reported;
    reported = new Map();
    for (const [tenantId, entities] of batch) {
      const keys = new Set<string>();
      for (const entity of entities.values()) for (const key of entity.keys) keys.add(key);
      const watchers = await db.tenantTx(tenantId, (tx) => watchersOnKeys(tx, tenantId, [...keys]));
      for (const watcher of watchers) {
        // only the entities this watcher watches: no transaction for a watcher none of whose entities reported
        const ids = watcher.entity_ids ?? [];
        const types = watcher.entity_type_ids ?? [];
        const only = [...entities]
          .filter(([entityId, entity]) => entity.keys.has(watcher.query.key) && ((!ids.length && !types.length) || ids.includes(entityId) || types.includes(entity.typeId)))
          .map(([entityId]) => entityId);
        if (only.length) await evaluate(watcher, only, false);
      }
    }
  };

  const loop = startWorkLoop({
    everyMs: options.everyMs ?? 5_000,
    onError: options.onError,
    work: async () => {
      if (reported.size) await evaluateReported();
      const due = await claimDueWatchers(db, CLAIM_BATCH, CLAIM_PER_TENANT);
      for (const watcher of due) await evaluate(watcher, undefined, true);
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
