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
import { rows } from './rows.ts';

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
 * delays another tenant's by one claim at most. Answers them in the order they fell due.
 */
export function claimDueSchedulers(db: Database, limit: number): Promise<SchedulerRow[]> {
  return db.systemQuery<SchedulerRow>(sql`WITH due AS (
      SELECT id, next_run_at, row_number() OVER (PARTITION BY tenant_id ORDER BY next_run_at) AS rank
      FROM schedulers WHERE status = 'active' AND next_run_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
    ), picked AS (
      SELECT s.id FROM schedulers s JOIN due ON due.id = s.id
      ORDER BY due.rank, due.next_run_at LIMIT ${limit} FOR UPDATE OF s SKIP LOCKED
    ), claimed AS (
      UPDATE schedulers s SET claimed_until = now() + make_interval(secs => ${CLAIM_MS / 1000})
      FROM picked WHERE s.id = picked.id
      RETURNING s.id, s.tenant_id, s.name, s.definition, s.entity_ids, s.entity_type_ids, (extract(epoch FROM s.next_run_at) * 1000)::float8 AS occurrence_ms,
        s.failed_attempts, s.last_failure
    )
    SELECT * FROM claimed ORDER BY occurrence_ms, id`);
}

/** A run that failed (rolled back): counted with its reason, and tried again once the claim lapses after `retryAfterMs`. */
export async function recordFailedAttempt(db: Database, schedulerId: number, failure: string, retryAfterMs: number): Promise<void> {
  await db.systemQuery(sql`UPDATE schedulers SET failed_attempts = failed_attempts + 1, last_failure = ${failure},
      claimed_until = now() + make_interval(secs => ${retryAfterMs / 1000})
    WHERE id = ${schedulerId}`);
}

/** An occurrence of a scheduler: its instant (ISO). */
export interface SchedulerOccurrence { schedulerId: number; occurrence: string }

/**
 * Records the occurrences' runs (of one tenant, at most one per scheduler), in scheduler order so
 * two instances never wait on each other in a circle; answers the schedulers whose occurrence was
 * recorded now — the others were run already (by this or another instance).
 */
export async function recordRuns(tx: Tx, tenantId: string, runs: readonly (SchedulerOccurrence & { result: string })[]): Promise<Set<number>> {
  if (!runs.length) return new Set();
  const stored = await rows<{ scheduler_id: number }>(tx, sql`INSERT INTO scheduler_runs (tenant_id, scheduler_id, occurrence_at, result, message)
    SELECT ${tenantId}, r."schedulerId", r.occurrence, r.result, '' FROM jsonb_to_recordset(${JSON.stringify(runs)}::jsonb) AS r("schedulerId" int, occurrence timestamptz, result text)
    ORDER BY r."schedulerId"
    ON CONFLICT (scheduler_id, occurrence_at) DO NOTHING RETURNING scheduler_id`);
  return new Set(stored.map((row) => row.scheduler_id));
}

/** The recorded runs' outcomes, once known (in the runs' transaction). */
export async function updateRuns(tx: Tx, runs: readonly (SchedulerOccurrence & { result: string; message: string })[]): Promise<void> {
  if (!runs.length) return;
  await tx.execute(sql`UPDATE scheduler_runs r SET result = v.result, message = v.message, finished_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(runs)}::jsonb) AS v("schedulerId" int, occurrence timestamptz, result text, message text)
    WHERE r.scheduler_id = v."schedulerId" AND r.occurrence_at = v.occurrence`);
}

/** Each scheduler's entities (ids, ascending): its ids and every entity of its types, in the tenant (a scheduler with none: no entry). */
export async function schedulersEntities(tx: Tx, tenantId: string, schedulers: readonly Pick<SchedulerRow, 'id' | 'entity_ids' | 'entity_type_ids'>[]): Promise<Map<number, number[]>> {
  const wanted = schedulers.map(({ id, entity_ids: ids, entity_type_ids: types }) => ({ id, ids: ids ?? [], types: types ?? [] }));
  const ids = (list: string) => sql`ARRAY(SELECT jsonb_array_elements_text(${sql.raw(list)})::int)`;
  const found = await rows<{ scheduler_id: number; id: number }>(tx, sql`SELECT w.id AS scheduler_id, e.id
    FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS w(id int, ids jsonb, types jsonb)
    CROSS JOIN LATERAL (
      SELECT id FROM entities WHERE tenant_id = ${tenantId} AND id = ANY(${ids('w.ids')})
      UNION
      SELECT id FROM entities WHERE tenant_id = ${tenantId} AND entity_type_id = ANY(${ids('w.types')})
    ) e
    ORDER BY w.id, e.id`);
  return new Map([...Map.groupBy(found, (row) => row.scheduler_id)].map(([schedulerId, list]) => [schedulerId, list.map((row) => row.id)]));
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

/** The schedulers after their runs: each one's result (null: kept), its next run (null: a single run done), its claim and failures cleared. */
export async function finishOccurrences(tx: Tx, finished: readonly { schedulerId: number; result: string | null; next: string | null }[]): Promise<void> {
  if (!finished.length) return;
  await tx.execute(sql`UPDATE schedulers s SET result = coalesce(v.result, s.result), next_run_at = v.next, claimed_until = NULL,
      failed_attempts = 0, last_failure = NULL
    FROM jsonb_to_recordset(${JSON.stringify(finished)}::jsonb) AS v("schedulerId" int, result text, next timestamptz)
    WHERE s.id = v."schedulerId"`);
}
