// The scheduler engine's statements (server/engines/schedulers): claiming due schedulers across
// tenants (SKIP LOCKED and a claim that lapses, so a dead instance's occurrence is run by another),
// the run's record (unique per scheduler and occurrence: an occurrence runs once), the values it
// aggregates (roll-ups up to the folder's line, raw points after it), the target attribute it
// writes, and the scheduler's result and next run.
import { sql } from 'drizzle-orm';
import type { Scheduler } from '../../src/schemas/scheduler.ts';
import type { Database, Tx } from './database.ts';
import type { SourceSpans } from '../time/kpiTime.ts';
import { planSourceRows } from './kpiDataQueries.ts';
import { intArray, rows } from './rows.ts';

/** How long a claim holds: an instance that died mid-run lets another take the occurrence after it. */
export const CLAIM_MS = 60_000;

export interface SchedulerRow {
  id: number;
  tenant_id: string;
  name: string;
  definition: Scheduler['definition'];
  entity_ids: number[] | null;
  entity_type_ids: number[] | null;
  /** The due occurrence (ms). */
  occurrence_ms: number;
  /** How often this occurrence's run has failed, and why the last time (a code: timeout, unavailable, unexpected). */
  failed_attempts: number;
  last_failure: string | null;
}

/**
 * Claims up to `limit` due active schedulers across tenants, taken in turn: each tenant's first
 * due, then each one's second… — a tenant with 10,000 due at one minute fills a claim alone, and
 * delays another tenant's by one claim at most.
 */
export function claimDueSchedulers(db: Database, limit: number): Promise<SchedulerRow[]> {
  return db.systemQuery<SchedulerRow>(sql`WITH due AS (
      SELECT id, next_run_at, row_number() OVER (PARTITION BY tenant_id ORDER BY next_run_at) AS rank
      FROM schedulers WHERE status = 'active' AND next_run_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
    ), picked AS (
      SELECT s.id FROM schedulers s JOIN due ON due.id = s.id
      ORDER BY due.rank, due.next_run_at LIMIT ${limit} FOR UPDATE OF s SKIP LOCKED
    )
    UPDATE schedulers s SET claimed_until = now() + make_interval(secs => ${CLAIM_MS / 1000})
    FROM picked WHERE s.id = picked.id
    RETURNING s.id, s.tenant_id, s.name, s.definition, s.entity_ids, s.entity_type_ids, (extract(epoch FROM s.next_run_at) * 1000)::float8 AS occurrence_ms,
      s.failed_attempts, s.last_failure`);
}

/** A run that failed (rolled back): counted with its reason, and tried again once the claim lapses after `retryAfterMs`. */
export async function recordFailedAttempt(db: Database, schedulerId: number, failure: string, retryAfterMs: number): Promise<void> {
  await db.systemQuery(sql`UPDATE schedulers SET failed_attempts = failed_attempts + 1, last_failure = ${failure},
      claimed_until = now() + make_interval(secs => ${retryAfterMs / 1000})
    WHERE id = ${schedulerId}`);
}

/** Records an occurrence's run; false when it was already run (by this or another instance). */
export async function recordRun(tx: Tx, run: { tenantId: string; schedulerId: number; occurrence: string; result: string; message: string }): Promise<boolean> {
  const stored = await rows(tx, sql`INSERT INTO scheduler_runs (tenant_id, scheduler_id, occurrence_at, result, message)
    VALUES (${run.tenantId}, ${run.schedulerId}, ${run.occurrence}::timestamptz, ${run.result}, ${run.message})
    ON CONFLICT (scheduler_id, occurrence_at) DO NOTHING RETURNING 1`);
  return stored.length > 0;
}

/** The recorded run's outcome, once known (in the run's transaction). */
export async function updateRun(tx: Tx, schedulerId: number, occurrence: string, result: string, message: string): Promise<void> {
  await tx.execute(sql`UPDATE scheduler_runs SET result = ${result}, message = ${message}, finished_at = now()
    WHERE scheduler_id = ${schedulerId} AND occurrence_at = ${occurrence}::timestamptz`);
}

/** The scheduler's entities: its ids and every entity of its types, in the tenant. */
export async function schedulerEntities(tx: Tx, scheduler: SchedulerRow): Promise<{ id: number; entity_type_id: number }[]> {
  return rows(tx, sql`SELECT id, entity_type_id FROM entities
    WHERE tenant_id = ${scheduler.tenant_id} AND (id = ANY(${intArray(scheduler.entity_ids ?? [])}) OR entity_type_id = ANY(${intArray(scheduler.entity_type_ids ?? [])}))
    ORDER BY id`);
}

export type RunAggregation = 'avg' | 'max' | 'min' | 'sum' | 'latest-value';

/**
 * Each entity's aggregation of `key` over the slot `plan` reads (server/time/kpiTime.ts: hourly
 * or quarter-hourly roll-ups as far as the folder's line, raw points after it). An entity without
 * values is left out.
 */
export function aggregateOverSlot(tx: Tx, query: { tenantId: string; zone: string; entityIds: number[]; key: string; aggregation: RunAggregation; plan: SourceSpans[] }) {
  const value = {
    avg: sql`sum(r.sum) / nullif(sum(r.count), 0)`,
    max: sql`max(r.max)`,
    min: sql`min(r.min)`,
    sum: sql`sum(r.sum)`,
    'latest-value': sql`(array_agg(r.last_value ORDER BY r.last_ts DESC NULLS LAST))[1]`,
  }[query.aggregation];
  return rows<{ entity_id: number; value: number | null }>(tx, sql`SELECT r.entity_id, ${value} AS value FROM (${planSourceRows(query, query.plan)}) r
    GROUP BY r.entity_id`);
}

/** Writes each entity's value into its attribute `attribute`; answers the entities written with their new attributes. */
export function writeTargetAttribute(tx: Tx, tenantId: string, attribute: string, values: { entity_id: number; value: unknown }[]) {
  if (!values.length) return Promise.resolve([]);
  return rows<{ id: number; entity_type_id: number; attributes: Record<string, unknown> }>(tx, sql`UPDATE entities e
    SET attributes = jsonb_set(coalesce(e.attributes, '{}'::jsonb), ARRAY[${attribute}], v.value), updated_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(entity_id int, value jsonb)
    WHERE e.id = v.entity_id AND e.tenant_id = ${tenantId}
    RETURNING e.id, e.entity_type_id, e.attributes`);
}

/** The scheduler after a run: its result, its next run (none: a single run done), its claim and failures cleared. */
export async function finishOccurrence(tx: Tx, schedulerId: number, result: string | null, nextRunAt: string | null): Promise<void> {
  await tx.execute(sql`UPDATE schedulers SET result = coalesce(${result}, result), next_run_at = ${nextRunAt}::timestamptz, claimed_until = NULL,
      failed_attempts = 0, last_failure = NULL
    WHERE id = ${schedulerId}`);
}
