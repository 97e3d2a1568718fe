// The scheduler engine: runs each due occurrence of the tenants' schedulers exactly once. Due
// schedulers are claimed across tenants (SKIP LOCKED, a claim that lapses after CLAIM_MS); a
// claim's occurrences of one tenant run together in one transaction (statements over all of them:
// a city's thousands due at one minute cost a few statements a hundred runs) that first records
// the runs under the unique key (scheduler, occurrence) — a second instance waits on that key and
// then finds them taken — then reads the aggregations over the time slots, writes the target
// attributes of the entities, logs the runs and moves the schedulers to their next occurrences.
// An instance that dies mid-run leaves nothing: the transaction rolls back and the claim lapses, so
// another instance runs the occurrences. When runs together fail, each is run alone, so one
// failing run holds back no other; a run that fails alone (rolled back) is tried again after a
// back-off, and after MAX_FAILED_ATTEMPTS the occurrence is given up: recorded and logged as
// failed, with the reason, and the next one is due.
import type { Database, Tx } from '../../db/database.ts';
import { tenantTimeZone } from '../../db/directoryQueries.ts';
import { claimDueSchedulers, finishOccurrences, recordFailedAttempt, recordRuns, updateRuns, type SchedulerRow } from '../../db/schedulerQueries.ts';
import { writeEngineLogs } from '../../db/logQueries.ts';
import { timeZoneOrUtc } from '../../../src/shared/lighting/localTime.ts';
import { foldedUntil } from '../../db/rollupQueries.ts';
import { startWorkLoop } from '../../workLoop.ts';
import { planOccurrence } from './occurrences.ts';
import { complexAnswer, failureReason, outcomeOf, runOccurrences, type Due, type FailureReason, type WrittenEntity } from './occurrenceRuns.ts';

const CLAIM_BATCH = 100;
/** Runs together name at most this many entities in all; a scheduler over entity types runs alone (how many it has is read in the run). */
const TOGETHER_ENTITIES = 10_000;
export const MAX_FAILED_ATTEMPTS = 3;
/** A failed run is tried again after this many of the engine's passes, times the failures so far (5 s passes: 30 s, 60 s). */
const RETRY_AFTER_PASSES = 6;

export interface SchedulerEngineOptions {
  onError(error: unknown): void;
  /** In the runs' transaction: their log rows were written (notifications are queued here). */
  onLogged?(tx: Tx, tenantId: string, logIds: readonly number[]): Promise<void>;
  /** After the commit: a run was logged (deliveries may be waiting). */
  afterLogged?(): void;
  /** After the commit: entities whose attributes runs wrote. */
  onEntitiesChanged?(tenantId: string, entities: WrittenEntity[]): void;
  /** After the commit: the schedulers' results or next runs changed. */
  onSchedulersChanged?(tenantId: string, schedulerIds: number[]): void;
  everyMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface SchedulerEngine { stop(): Promise<void> }

/** The claimed schedulers of one tenant in groups to run together: in claim order, up to TOGETHER_ENTITIES listed entities; one over entity types alone. */
function together(dues: Due[]): Due[][] {
  const groups: Due[][] = [];
  let entities = Infinity; // listed in the last group; Infinity: it takes no more
  for (const due of dues) {
    const alone = (due.scheduler.entity_type_ids?.length ?? 0) > 0;
    const listed = due.scheduler.entity_ids?.length ?? 0;
    if (!alone && entities + listed <= TOGETHER_ENTITIES) {
      groups.at(-1)!.push(due);
      entities += listed;
    } else {
      groups.push([due]);
      entities = alone ? Infinity : listed;
    }
  }
  return groups;
}

export function startSchedulerEngine(db: Database, options: SchedulerEngineOptions): SchedulerEngine {
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 5_000;

  /** A claimed scheduler's due occurrence: planned, and a complex query answered (its own statement, before the transaction). */
  const prepare = async (scheduler: SchedulerRow, zone: string): Promise<Due> => {
    const plan = planOccurrence(scheduler.definition, zone, scheduler.occurrence_ms, now());
    const givenUp = scheduler.failed_attempts >= MAX_FAILED_ATTEMPTS;
    const at = plan.run ? plan.occurrence : plan.skippedTo;
    return {
      scheduler, plan, givenUp, reason: (scheduler.last_failure ?? 'unexpected') as FailureReason, at, occurrence: new Date(at).toISOString(),
      next: plan.next === null ? null : new Date(plan.next).toISOString(),
      complex: plan.run && !givenUp && scheduler.definition.aggregation === 'complex-query' ? await complexAnswer(db, scheduler, zone, plan.occurrence) : undefined,
    };
  };

  /** A run that failed (rolled back): tried again after a back-off, given up after MAX_FAILED_ATTEMPTS. */
  const failed = async (scheduler: SchedulerRow, error: unknown) => {
    options.onError(error);
    const retryAfterMs = RETRY_AFTER_PASSES * everyMs * (scheduler.failed_attempts + 1);
    await recordFailedAttempt(db, scheduler.id, failureReason(error), retryAfterMs).catch(options.onError); // else the claim lapses
  };

  /** The occurrences of one tenant in one transaction. */
  const runTogether = async (tenantId: string, zone: string, dues: Due[], foldedUntilMs: number) => {
    const done = await db.tenantTx(tenantId, async (tx) => {
      const recorded = await recordRuns(tx, tenantId, dues.map((due) => ({ schedulerId: due.scheduler.id, occurrence: due.occurrence, result: due.plan.run ? 'ok' : 'skipped' })));
      // the others were run already (an instance whose claim lapsed got there first): only moved on
      const mine = dues.filter((due) => recorded.has(due.scheduler.id));
      const { outcomes, changed } = await runOccurrences(tx, tenantId, zone, mine.filter((due) => due.plan.run && !due.givenUp), foldedUntilMs);
      const results = mine.map((due) => ({ due, outcome: outcomeOf(due, outcomes) }));
      await updateRuns(tx, results.map(({ due, outcome }) => ({ schedulerId: due.scheduler.id, occurrence: due.occurrence, result: due.plan.run ? outcome.result : 'skipped', message: outcome.message })));
      const logIds = await writeEngineLogs(tx, tenantId, results.map(({ due: { scheduler, plan, givenUp, reason, occurrence }, outcome }) => ({
        entityId: null, at: new Date(now()).toISOString(), type: givenUp ? 'error' : outcome.result === 'ok' ? 'informational' : 'warning',
        source: 'scheduler', message: outcome.message, eventKey: `scheduler:${scheduler.id}:${occurrence}`,
        data: { source_id: scheduler.id, scheduler: scheduler.name, occurrence, result: !plan.run ? 'skipped' : givenUp ? 'failed' : outcome.result, entities: outcome.written, attribute: scheduler.definition.target_attribute,
          ...(givenUp ? { failures: scheduler.failed_attempts, reason } : {}) },
      })));
      const logged = logIds.filter((id) => id !== undefined);
      if (logged.length) await options.onLogged?.(tx, tenantId, logged);
      const resultOf = new Map(results.map(({ due, outcome }) => [due, outcome.result]));
      await finishOccurrences(tx, dues.map((due) => ({ schedulerId: due.scheduler.id, result: due.plan.run ? resultOf.get(due) ?? null : null, next: due.next })));
      return { logged: logged.length > 0, changed };
    });
    if (done.logged) options.afterLogged?.();
    if (done.changed.length) options.onEntitiesChanged?.(tenantId, done.changed);
    options.onSchedulersChanged?.(tenantId, dues.map((due) => due.scheduler.id));
  };

  /** Runs the occurrences together; when that fails, each alone, so that one failing run holds back no other. */
  const run = async (tenantId: string, zone: string, dues: Due[], foldedUntilMs: number): Promise<void> => {
    try {
      await runTogether(tenantId, zone, dues, foldedUntilMs);
    } catch (error) {
      if (dues.length === 1) return failed(dues[0].scheduler, error);
      for (const due of dues) await run(tenantId, zone, [due], foldedUntilMs);
    }
  };

  const loop = startWorkLoop({
    everyMs,
    onError: options.onError,
    work: async () => {
      const due = await claimDueSchedulers(db, CLAIM_BATCH);
      // a line read before the runs is never past the one they would read: the raw points cover the rest
      const foldedUntilMs = due.length ? await foldedUntil(db) : Number.NEGATIVE_INFINITY;
      const byTenant = Map.groupBy(due, (scheduler) => scheduler.tenant_id);
      for (const [tenantId, schedulers] of byTenant) {
        let zone: string;
        try {
          zone = timeZoneOrUtc(await db.tenantTx(tenantId, tenantTimeZone));
        } catch (error) {
          for (const scheduler of schedulers) await failed(scheduler, error);
          continue;
        }
        const dues: Due[] = [];
        for (const scheduler of schedulers) {
          try {
            dues.push(await prepare(scheduler, zone));
          } catch (error) {
            await failed(scheduler, error);
          }
        }
        for (const group of together(dues)) await run(tenantId, zone, group, foldedUntilMs);
      }
      // straight on while any were due: a claim takes at most CLAIM_BATCH
      return due.length > 0;
    },
  });
  return { stop: () => loop.stop() };
}
