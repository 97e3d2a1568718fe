// A claimed scheduler's due occurrence (worked out before its transaction) and the work of many
// such runs of one tenant inside their one transaction: the aggregations over the time slots read
// once for all the runs asking for the same, the target attributes written in one statement each,
// and each run's outcome in the words of its log row.
import type { Database, Tx } from '../../db/database.ts';
import { isDatabaseUnavailable, isStatementTimeout } from '../../db/databaseErrors.ts';
import { aggregateOverSlot, schedulersEntities, writeTargetAttribute, type RunAggregation, type SchedulerRow } from '../../db/schedulerQueries.ts';
import { calendarRange, foldedPlan, offsetsWithin, type CalendarTimeRange } from '../../time/kpiTime.ts';
import { ComplexQueryRefused, runComplexQuery, type ComplexQueryResult } from '../../services/complexQuery/complexQuery.ts';
import type { OccurrencePlan } from './occurrences.ts';

/** Why a run failed (never the database's own text): a code kept with the scheduler, its words in the log. */
const FAILURE_REASONS = {
  timeout: 'it took longer than the database allows',
  unavailable: 'the database could not be reached',
  unexpected: 'an unexpected error, see the server log',
};
export type FailureReason = keyof typeof FAILURE_REASONS;

export function failureReason(error: unknown): FailureReason {
  if (isStatementTimeout(error)) return 'timeout';
  if (isDatabaseUnavailable(error)) return 'unavailable';
  return 'unexpected';
}

/** An entity whose attributes runs wrote, as it is after the runs. */
export type WrittenEntity = { id: number; entity_type_id: number; attributes: Record<string, unknown> };

/** What one occurrence did: its result, its log line, how many entities' attribute it wrote. */
export interface RunOutcome {
  result: 'ok' | 'nok';
  message: string;
  written: number;
}

const SLOT_RANGES: Record<string, CalendarTimeRange> = { 'last-week': 'last_week', 'last-month': 'last_month', 'last-year': 'last_year' };

/** A complex query's answer, or why it was refused (read before the run's transaction: it is its own statement). */
type ComplexAnswer = { value: ComplexQueryResult } | { refused: string };

export async function complexAnswer(db: Database, scheduler: SchedulerRow, zone: string, occurrence: number): Promise<ComplexAnswer> {
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

/** A claimed scheduler's due occurrence, worked out before its transaction. */
export interface Due {
  scheduler: SchedulerRow;
  plan: OccurrencePlan;
  /** The occurrence recorded (ms, and ISO): the one run, or the last of those skipped. */
  at: number;
  occurrence: string;
  next: string | null;
  givenUp: boolean;
  reason: FailureReason;
  complex?: ComplexAnswer;
}

/**
 * The runs' work inside their transaction: each one's values over its slot (an aggregation read
 * once for all the runs asking for the same key, aggregation and slot), written into its target
 * attribute (one statement an attribute; of two runs writing one entity's attribute, the later
 * one's value stays, as if they had run one after another). Answers each run's outcome, and the
 * entities written as they are after all the runs.
 */
export async function runOccurrences(tx: Tx, tenantId: string, zone: string, dues: Due[], foldedUntil: number) {
  const entities = await schedulersEntities(tx, tenantId, dues.map((due) => due.scheduler));
  const outcomes = new Map<number, RunOutcome>();
  const planned = new Map<Due, { values: { entity_id: number; value: unknown }[]; what: string }>();
  const reads = new Map<string, { query: Parameters<typeof aggregateOverSlot>[1]; dues: Due[] }>();
  const idsOf = (due: Due) => entities.get(due.scheduler.id) ?? [];
  for (const due of dues) {
    const { id, name, definition } = due.scheduler;
    const ids = idsOf(due);
    if (!ids.length) outcomes.set(id, { result: 'nok', message: `${name}: no entities to write ${definition.target_attribute} of`, written: 0 });
    else if (definition.aggregation === 'static-value') planned.set(due, { values: ids.map((entity) => ({ entity_id: entity, value: definition.value ?? null })), what: `the value ${definition.value}` });
    else if (due.complex && 'refused' in due.complex) outcomes.set(id, { result: 'nok', message: `${name}: Test of query ended with error = ${due.complex.refused}`, written: 0 });
    else if (due.complex) {
      const { value } = due.complex;
      planned.set(due, { values: value === null ? [] : ids.map((entity) => ({ entity_id: entity, value })), what: 'the complex query' });
    } else {
      const [from, to] = calendarRange(zone, SLOT_RANGES[definition.time_slot], due.at);
      const key = definition.key ?? '';
      const aggregation = definition.aggregation as RunAggregation;
      const slot = JSON.stringify([key, aggregation, from, to]);
      let read = reads.get(slot);
      if (!read) {
        const quarterHours = offsetsWithin(zone, from, to).some((offset) => offset % 3_600_000 !== 0);
        const plan = foldedPlan([{ source: quarterHours ? 'telemetry_quarter_hourly' : 'telemetry_hourly', spans: [[from, to]] }], zone, foldedUntil);
        reads.set(slot, read = { query: { tenantId, zone, entityIds: [], key, aggregation, plan }, dues: [] });
      }
      read.query.entityIds.push(...ids);
      read.dues.push(due);
    }
  }
  for (const { query, dues: reading } of reads.values()) {
    query.entityIds = [...new Set(query.entityIds)];
    const found = new Map((await aggregateOverSlot(tx, query)).filter((row) => row.value !== null).map((row) => [row.entity_id, Number(row.value)]));
    for (const due of reading) {
      const { definition } = due.scheduler;
      planned.set(due, { values: idsOf(due).filter((id) => found.has(id)).map((id) => ({ entity_id: id, value: found.get(id) })), what: `${definition.aggregation} of ${definition.key} over ${definition.time_slot}` });
    }
  }

  const byAttribute = new Map<string, Map<number, unknown>>();
  for (const due of dues) {
    const values = planned.get(due)?.values ?? [];
    const attribute = due.scheduler.definition.target_attribute;
    let entityValues = byAttribute.get(attribute);
    if (!entityValues) byAttribute.set(attribute, entityValues = new Map());
    for (const { entity_id: id, value } of values) entityValues.set(id, value);
  }
  const writtenBy = new Map<string, Set<number>>();
  const changed = new Map<number, WrittenEntity>();
  for (const [attribute, entityValues] of byAttribute) {
    const written = await writeTargetAttribute(tx, tenantId, attribute, [...entityValues].map(([id, value]) => ({ entity_id: id, value })));
    writtenBy.set(attribute, new Set(written.map((entity) => entity.id)));
    for (const entity of written) changed.set(entity.id, entity);
  }

  for (const [due, { values, what }] of planned) {
    const { id, name, definition } = due.scheduler;
    const attribute = definition.target_attribute;
    const written = values.filter((value) => writtenBy.get(attribute)?.has(value.entity_id)).length;
    outcomes.set(id, written
      ? { result: 'ok', message: `${name}: wrote ${attribute} (${what}) of ${written} of ${idsOf(due).length} entities`, written }
      : { result: 'nok', message: `${name}: no ${definition.key ?? 'values'} in ${definition.time_slot}; nothing written`, written });
  }
  return { outcomes, changed: [...changed.values()] };
}

/** The outcome of a recorded occurrence: skipped, given up, or run. */
export function outcomeOf(due: Due, runs: Map<number, RunOutcome>): RunOutcome {
  const { scheduler, plan } = due;
  if (!plan.run) return { result: 'nok', message: `${scheduler.name}: ${plan.skipped} run(s) missed more than a day ago were skipped (${new Date(plan.skippedFrom).toISOString()} – ${due.occurrence})`, written: 0 };
  if (due.givenUp) return { result: 'nok', message: `${scheduler.name}: the run failed ${scheduler.failed_attempts} times (${FAILURE_REASONS[due.reason] ?? FAILURE_REASONS.unexpected}); it is not tried again`, written: 0 };
  return runs.get(scheduler.id)!;
}
