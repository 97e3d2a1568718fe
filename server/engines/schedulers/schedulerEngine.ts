// The scheduler engine: runs each due occurrence of the tenants' schedulers exactly once. Due
// schedulers are claimed across tenants (SKIP LOCKED, a claim that lapses after CLAIM_MS); each
// occurrence runs in one transaction of its tenant that first records the run under the unique key
// (scheduler, occurrence) — a second instance waits on that key and then finds it taken — then
// reads the aggregation over the time slot, writes the target attribute of the entities, logs the
// run and moves the scheduler to its next occurrence. An instance that dies mid-run leaves nothing:
// the transaction rolls back and the claim lapses, so another instance runs the occurrence. A run
// that fails (rolled back) is tried again after a back-off; after MAX_FAILED_ATTEMPTS the
// occurrence is given up: recorded and logged as failed, with the reason, and the next one is due.
import type { Database, Tx } from '../../db/database.ts';
import { isDatabaseUnavailable, isStatementTimeout } from '../../db/databaseErrors.ts';
import { tenantTimeZone } from '../../db/directoryQueries.ts';
import {
  aggregateOverSlot, claimDueSchedulers, finishOccurrence, recordFailedAttempt, recordRun, schedulerEntities, updateRun, writeTargetAttribute,
  type RunAggregation, type SchedulerRow,
} from '../../db/schedulerQueries.ts';
import { writeEngineLog } from '../../db/logQueries.ts';
import { timeZoneOrUtc } from '../../../src/shared/lighting/localTime.ts';
import { foldedUntil } from '../../db/rollupQueries.ts';
import { calendarRange, foldedPlan, offsetsWithin, type CalendarTimeRange } from '../../time/kpiTime.ts';
import { startWorkLoop } from '../../workLoop.ts';
import { ComplexQueryRefused, runComplexQuery, type ComplexQueryResult } from '../../services/complexQuery/complexQuery.ts';
import { planOccurrence } from './occurrences.ts';

const CLAIM_BATCH = 100;
export const MAX_FAILED_ATTEMPTS = 3;
/** A failed run is tried again after this many of the engine's passes, times the failures so far (5 s passes: 30 s, 60 s). */
const RETRY_AFTER_PASSES = 6;

/** Why a run failed (never the database's own text): a code kept with the scheduler, its words in the log. */
const FAILURE_REASONS = {
  timeout: 'it took longer than the database allows',
  unavailable: 'the database could not be reached',
  unexpected: 'an unexpected error, see the server log',
};
type FailureReason = keyof typeof FAILURE_REASONS;

function failureReason(error: unknown): FailureReason {
  if (isStatementTimeout(error)) return 'timeout';
  if (isDatabaseUnavailable(error)) return 'unavailable';
  return 'unexpected';
}

/** What one occurrence did: its result, its log line, the entities whose attribute it wrote. */
interface RunOutcome {
  result: 'ok' | 'nok';
  message: string;
  written: { id: number; entity_type_id: number; attributes: Record<string, unknown> }[];
}

export interface SchedulerEngineOptions {
  onError(error: unknown): void;
  /** In the run's transaction: its log row was written (notifications are queued here). */
  onLogged?(tx: Tx, tenantId: string, logId: number): Promise<void>;
  /** After the commit: a run was logged (deliveries may be waiting). */
  afterLogged?(): void;
  /** After the commit: entities whose attributes a run wrote. */
  onEntitiesChanged?(tenantId: string, entities: RunOutcome['written']): void;
  /** After the commit: the scheduler's result or next run changed. */
  onSchedulerChanged?(tenantId: string, schedulerId: number): void;
  everyMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface SchedulerEngine { stop(): Promise<void> }

const SLOT_RANGES: Record<string, CalendarTimeRange> = { 'last-week': 'last_week', 'last-month': 'last_month', 'last-year': 'last_year' };

/** A complex query's answer, or why it was refused (read before the run's transaction: it is its own statement). */
type ComplexAnswer = { value: ComplexQueryResult } | { refused: string };

async function complexAnswer(db: Database, scheduler: SchedulerRow, zone: string, occurrence: number): Promise<ComplexAnswer> {
  const { definition } = scheduler;
  try {
    const value = await runComplexQuery(db, {
      tenantId: scheduler.tenant_id, timeZone: zone, query: definition.query ?? '', now: occurrence, timeSlot: definition.time_slot,
      entityIds: scheduler.entity_ids ?? [], entityTypeIds: scheduler.entity_type_ids ?? [],
    });
    return { value };
  } catch (error) {
    if (error instanceof ComplexQueryRefused) return { refused: error.message };
    throw error;
  }
}

/** The run's work inside its transaction: the values over the slot, written into the target attribute. */
/** What a pass reads once for all of its runs: each tenant's zone, and how far the roll-ups hold the raw points. */
interface Pass { zones: Map<string, string>; foldedUntil: number }

async function runOccurrence(tx: Tx, scheduler: SchedulerRow, zone: string, occurrence: number, foldedUntil: number, complex?: ComplexAnswer): Promise<RunOutcome> {
  const { definition } = scheduler;
  const entities = await schedulerEntities(tx, scheduler);
  if (!entities.length) return { result: 'nok', message: `${scheduler.name}: no entities to write ${definition.target_attribute} of`, written: [] };
  const ids = entities.map((entity) => entity.id);
  let values: { entity_id: number; value: unknown }[];
  let what: string;
  if (definition.aggregation === 'static-value') {
    values = ids.map((id) => ({ entity_id: id, value: definition.value ?? null }));
    what = `the value ${definition.value}`;
  } else if (complex) {
    if ('refused' in complex) return { result: 'nok', message: `${scheduler.name}: Test of query ended with error = ${complex.refused}`, written: [] };
    values = complex.value === null ? [] : ids.map((id) => ({ entity_id: id, value: complex.value }));
    what = 'the complex query';
  } else {
    const [from, to] = calendarRange(zone, SLOT_RANGES[definition.time_slot], occurrence);
    const quarterHours = offsetsWithin(zone, from, to).some((offset) => offset % 3_600_000 !== 0);
    const rows = await aggregateOverSlot(tx, {
      tenantId: scheduler.tenant_id, zone, entityIds: ids, key: definition.key ?? '', aggregation: definition.aggregation as RunAggregation,
      plan: foldedPlan([{ source: quarterHours ? 'telemetry_quarter_hourly' : 'telemetry_hourly', spans: [[from, to]] }], zone, foldedUntil),
    });
    values = rows.filter((row) => row.value !== null).map((row) => ({ entity_id: row.entity_id, value: Number(row.value) }));
    what = `${definition.aggregation} of ${definition.key} over ${definition.time_slot}`;
  }
  const written = await writeTargetAttribute(tx, scheduler.tenant_id, definition.target_attribute, values);
  return written.length
    ? { result: 'ok', message: `${scheduler.name}: wrote ${definition.target_attribute} (${what}) of ${written.length} of ${entities.length} entities`, written }
    : { result: 'nok', message: `${scheduler.name}: no ${definition.key ?? 'values'} in ${definition.time_slot}; nothing written`, written };
}

export function startSchedulerEngine(db: Database, options: SchedulerEngineOptions): SchedulerEngine {
  const now = options.now ?? Date.now;

  /** One claimed scheduler: its due occurrence run (or the long-missed ones skipped), in one transaction. */
  const handle = async (scheduler: SchedulerRow, pass: Pass) => {
    let zone = pass.zones.get(scheduler.tenant_id);
    if (!zone) pass.zones.set(scheduler.tenant_id, zone = timeZoneOrUtc(await db.tenantTx(scheduler.tenant_id, tenantTimeZone)));
    const plan = planOccurrence(scheduler.definition, zone, scheduler.occurrence_ms, now());
    const givenUp = scheduler.failed_attempts >= MAX_FAILED_ATTEMPTS;
    const reason = (scheduler.last_failure ?? 'unexpected') as FailureReason;
    const complex = plan.run && !givenUp && scheduler.definition.aggregation === 'complex-query' ? await complexAnswer(db, scheduler, zone, plan.occurrence) : undefined;
    const outcome = await db.tenantTx(scheduler.tenant_id, async (tx) => {
      const occurrence = new Date(plan.run ? plan.occurrence : plan.skippedTo).toISOString();
      const next = plan.next === null ? null : new Date(plan.next).toISOString();
      const first = await recordRun(tx, { tenantId: scheduler.tenant_id, schedulerId: scheduler.id, occurrence, result: plan.run ? 'ok' : 'skipped', message: '' });
      if (!first) {
        // run already (an instance whose claim lapsed got there first): only move on
        await finishOccurrence(tx, scheduler.id, null, next);
        return undefined;
      }
      const done: RunOutcome = !plan.run
        ? { result: 'nok', message: `${scheduler.name}: ${plan.skipped} run(s) missed more than a day ago were skipped (${new Date(plan.skippedFrom).toISOString()} – ${occurrence})`, written: [] }
        : givenUp
          ? { result: 'nok', message: `${scheduler.name}: the run failed ${scheduler.failed_attempts} times (${FAILURE_REASONS[reason] ?? FAILURE_REASONS.unexpected}); it is not tried again`, written: [] }
          : await runOccurrence(tx, scheduler, zone, plan.occurrence, pass.foldedUntil, complex);
      await updateRun(tx, scheduler.id, occurrence, plan.run ? done.result : 'skipped', done.message);
      const logId = await writeEngineLog(tx, {
        tenantId: scheduler.tenant_id, entityId: null, at: new Date(now()).toISOString(), type: givenUp ? 'error' : done.result === 'ok' ? 'informational' : 'warning',
        source: 'scheduler', message: done.message, eventKey: `scheduler:${scheduler.id}:${occurrence}`,
        data: { source_id: scheduler.id, scheduler: scheduler.name, occurrence, result: !plan.run ? 'skipped' : givenUp ? 'failed' : done.result, entities: done.written.length, attribute: scheduler.definition.target_attribute,
          ...(givenUp ? { failures: scheduler.failed_attempts, reason } : {}) },
      });
      if (logId !== undefined) await options.onLogged?.(tx, scheduler.tenant_id, logId);
      await finishOccurrence(tx, scheduler.id, plan.run ? done.result : null, next);
      return done;
    });
    if (outcome) options.afterLogged?.();
    if (outcome?.written.length) options.onEntitiesChanged?.(scheduler.tenant_id, outcome.written);
    options.onSchedulerChanged?.(scheduler.tenant_id, scheduler.id);
  };

  const everyMs = options.everyMs ?? 5_000;
  const loop = startWorkLoop({
    everyMs,
    onError: options.onError,
    work: async () => {
      const due = await claimDueSchedulers(db, CLAIM_BATCH);
      // a line read before the runs is never past the one they would read: the raw points cover the rest
      const pass: Pass = { zones: new Map(), foldedUntil: due.length ? await foldedUntil(db) : Number.NEGATIVE_INFINITY };
      for (const scheduler of due) {
        try {
          await handle(scheduler, pass);
        } catch (error) {
          options.onError(error); // rolled back: tried again after a back-off, given up after MAX_FAILED_ATTEMPTS
          const retryAfterMs = RETRY_AFTER_PASSES * everyMs * (scheduler.failed_attempts + 1);
          await recordFailedAttempt(db, scheduler.id, failureReason(error), retryAfterMs).catch(options.onError); // else the claim lapses
        }
      }
      // straight on while any were due: a claim takes at most CLAIM_BATCH
      return due.length > 0;
    },
  });
  return { stop: () => loop.stop() };
}
