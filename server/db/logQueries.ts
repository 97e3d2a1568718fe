// Log entries of changes users make (SPEC §2 logs): written in the change's own transaction, so a
// change and its entry are stored together or not at all; and of the engines' events, each once.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from './database.ts';
import { rows } from './rows.ts';

/** Who made the change: the caller's tenant and user. */
export interface ChangeAuthor { tenantId: string; userId: string }

/** An informational entry from source `user` about entity `id` (or none); `data` gets the user's id; `at` (ISO) defaults to now. */
export async function logUserChange(tx: Tx, author: ChangeAuthor, id: number | null, message: string, data: Record<string, unknown>, at?: string) {
  await tx.execute(sql`INSERT INTO logs (tenant_id, entity_id, timestamp, type, source, message, message_data)
    VALUES (${author.tenantId}, ${id}, COALESCE(${at ?? null}::timestamptz, now()), 'informational', 'user', ${message},
      ${JSON.stringify({ user: author.userId, ...data })}::json)`);
}

export interface EngineLog {
  tenantId: string;
  /** The entity it is about; null for a run over many. */
  entityId: number | null;
  at: string;
  type: string;
  source: string;
  message: string;
  data: Record<string, unknown>;
  /** Unique per tenant: a second write of the same event is dropped. */
  eventKey: string;
}

/** Writes an engine's log row once per event key; its id, or undefined when it was already written. */
export async function writeEngineLog(tx: Tx, log: EngineLog): Promise<number | undefined> {
  return (await writeEngineLogs(tx, log.tenantId, [log]))[0];
}

/** Writes the engine's log rows of one tenant in one statement, each once per event key: their ids in order, undefined where already written. */
export async function writeEngineLogs(tx: Tx, tenantId: string, logs: readonly Omit<EngineLog, 'tenantId'>[]): Promise<(number | undefined)[]> {
  if (!logs.length) return [];
  const written = await rows<{ id: number; event_key: string }>(tx, sql`INSERT INTO logs (tenant_id, entity_id, timestamp, type, source, message, message_data, event_key)
    SELECT ${tenantId}, l."entityId", l.at, l.type, l.source, l.message, l.data, l."eventKey"
    FROM jsonb_to_recordset(${JSON.stringify(logs.map((log, n) => ({ ...log, n })))}::jsonb)
      AS l("entityId" int, at timestamptz, type text, source text, message text, data jsonb, "eventKey" text, n int)
    ORDER BY l.n
    ON CONFLICT (tenant_id, event_key) DO NOTHING RETURNING id, event_key`);
  const ids = new Map(written.map((row) => [row.event_key, Number(row.id)]));
  return logs.map((log) => ids.get(log.eventKey));
}

/**
 * The handling columns of a log whose status becomes `status` (SPEC §3: new, seen, done): who
 * acknowledged it and when (kept from the first time), who resolved it and when; back to new, none.
 */
export function logHandlingColumns(status: unknown, userId: string): Record<'acknowledgedBy' | 'acknowledgedAt' | 'resolvedBy' | 'resolvedAt', SQL | null> {
  const who = sql`(SELECT email FROM users WHERE id = ${userId}::uuid)`;
  const kept = (column: string, value: SQL) => sql`coalesce(${sql.identifier(column)}, ${value})`;
  const acknowledged = status === 'seen' || status === 'done';
  const resolved = status === 'done';
  return {
    acknowledgedBy: acknowledged ? kept('acknowledged_by', who) : null,
    acknowledgedAt: acknowledged ? kept('acknowledged_at', sql`now()`) : null,
    resolvedBy: resolved ? kept('resolved_by', who) : null,
    resolvedAt: resolved ? kept('resolved_at', sql`now()`) : null,
  };
}
