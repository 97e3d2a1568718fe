// The notification outbox (`notification_deliveries`): who a log is for, queueing deliveries in the
// log's own transaction, and the sender's claims and outcomes. Claims and outcomes are system
// statements across tenants; the sender's lease (`next_attempt_at` moved forward on claim) and the
// claimed attempt number keep two instances from sending or settling the same delivery.
import { sql } from 'drizzle-orm';
import type { Database, Tx } from './database.ts';
import { intArrayParam, rows } from './rows.ts';

/** The log's field naming the record its source is about (a watcher's or scheduler's id). */
export const LOG_SOURCE_ID_FIELD = 'source_id';

/** The field of a log written about a failed delivery: such logs are never delivered themselves. */
export const FAILED_DELIVERY_FIELD = 'notification_delivery_id';

export interface LogRecipient {
  logId: number;
  userId: string;
  source: string;
  modules: string[];
  permissions: string[];
}

/**
 * For each of the logs, the users of its tenant with an active rule on `channel` that matches it: its type
 * is one of the rule's types, and the rule names no sources or one with the log's source and
 * either no `model_id` or the log's `message_data.source_id`. Logs about failed deliveries match
 * no rule.
 */
export const logRecipients = (tx: Tx, tenantId: string, logIds: readonly number[], channel: string) => rows<LogRecipient>(tx, sql`
  SELECT DISTINCT l.id::float8 AS "logId", u.id AS "userId", l.source, u.modules, u.module_permissions AS permissions
  FROM logs l
  JOIN notifications n ON n.tenant_id = l.tenant_id
  JOIN users u ON u.id = n.user_uuid AND u.tenant_id = l.tenant_id
  WHERE l.id = ANY(${intArrayParam(logIds, 'bigint')}) AND l.tenant_id = ${tenantId}
    AND l.message_data -> ${FAILED_DELIVERY_FIELD}::text IS NULL
    AND n.active AND ${channel} = ANY (n.channels)
    AND n.log_filter -> 'type' ? l.type
    AND (jsonb_array_length(coalesce(n.log_filter -> 'sources', '[]')) = 0 OR EXISTS (
      SELECT 1 FROM jsonb_array_elements(n.log_filter -> 'sources') AS named(rule_source)
      WHERE named.rule_source ->> 'model_name' = l.source
        AND (named.rule_source -> 'model_id' IS NULL OR named.rule_source ->> 'model_id' = l.message_data ->> ${LOG_SOURCE_ID_FIELD}::text)))
  ORDER BY "logId", u.id`);

/** Queues one pending delivery per log and user; one already queued for the log, user and channel stays as it is. Answers how many were new. */
export async function insertDeliveries(tx: Tx, tenantId: string, channel: string, deliveries: readonly { logId: number; userId: string }[]): Promise<number> {
  if (!deliveries.length) return 0;
  const inserted = await rows<{ id: string }>(tx, sql`
    INSERT INTO notification_deliveries (tenant_id, log_id, user_uuid, channel)
    SELECT ${tenantId}, d."logId", d."userId", ${channel} FROM jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb) AS d("logId" bigint, "userId" uuid)
    ON CONFLICT (log_id, user_uuid, channel) DO NOTHING RETURNING id`);
  return inserted.length;
}

/** A claimed e-mail delivery with what its message says. */
export interface ClaimedEmail {
  /** A bigint, as node-postgres reads it: text. */
  id: string;
  /** This claim's attempt number: the outcome is written only while the row still carries it. */
  attempt: number;
  tenantId: string;
  email: string;
  lang: string | null;
  message: string;
  type: string;
  source: string;
  timestamp: Date;
  messageData: Record<string, unknown> | null;
  entityName: unknown;
  timeZone: string | null;
}

export interface ClaimLimits {
  /** Deliveries per claim. */
  batch: number;
  /** Deliveries of one tenant per claim, so that one tenant's flood does not hold the others back. */
  perTenant: number;
  /** How long the claim is the claimant's: past it, the delivery is due again (the claimant is presumed gone). */
  leaseMs: number;
}

/**
 * Claims due pending e-mail deliveries, oldest first, at most `perTenant` of a tenant: rows another
 * claim holds are skipped, the claimed ones get their attempt counted and are not due again
 * until the lease ends.
 */
export const claimDueEmails = (db: Database, { batch, perTenant, leaseMs }: ClaimLimits) => db.systemQuery<ClaimedEmail>(sql`
  WITH due AS (
    SELECT id, row_number() OVER (PARTITION BY tenant_id ORDER BY next_attempt_at, id) AS place
    FROM notification_deliveries
    WHERE status = 'pending' AND channel = 'email' AND next_attempt_at <= now()
  ), claimable AS (
    SELECT d.id FROM notification_deliveries d JOIN due ON due.id = d.id
    WHERE due.place <= ${perTenant} AND d.status = 'pending' AND d.next_attempt_at <= now()
    ORDER BY d.next_attempt_at, d.id
    LIMIT ${batch}
    FOR UPDATE OF d SKIP LOCKED
  ), claimed AS (
    UPDATE notification_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
    FROM claimable WHERE d.id = claimable.id
    RETURNING d.id, d.attempts, d.tenant_id, d.log_id, d.user_uuid
  )
  SELECT c.id, c.attempts AS attempt, c.tenant_id AS "tenantId", u.email, u.lang, l.message, l.type, l.source, l.timestamp,
    l.message_data AS "messageData", e.name AS "entityName", t.attributes ->> 'timezone' AS "timeZone"
  FROM claimed c
  JOIN users u ON u.id = c.user_uuid
  JOIN logs l ON l.id = c.log_id
  JOIN tenants t ON t.id = c.tenant_id
  LEFT JOIN entities e ON e.id = l.entity_id
  ORDER BY c.id`);

/** The claim's own row, as long as no later claim has taken it. */
const stillClaimed = (id: string, attempt: number) => sql`id = ${id} AND attempts = ${attempt} AND status = 'pending'`;

export const markDeliverySent = (db: Database, id: string, attempt: number) => db.systemQuery(sql`
  UPDATE notification_deliveries SET status = 'sent', sent_at = now(), last_error = NULL WHERE ${stillClaimed(id, attempt)}`);

export const scheduleDeliveryRetry = (db: Database, id: string, attempt: number, delayMs: number, reason: string) => db.systemQuery(sql`
  UPDATE notification_deliveries SET next_attempt_at = now() + ${delayMs} * interval '1 millisecond', last_error = ${reason}
  WHERE ${stillClaimed(id, attempt)}`);

/** Gives claimed deliveries back unsent (the sender is stopping): due at once, the attempt not counted. */
export const releaseDeliveries = (db: Database, claims: Pick<ClaimedEmail, 'id' | 'attempt'>[]) => db.systemQuery(sql`
  UPDATE notification_deliveries d SET attempts = d.attempts - 1, next_attempt_at = now()
  FROM jsonb_to_recordset(${JSON.stringify(claims.map(({ id, attempt }) => ({ id, attempt })))}::jsonb) AS claim(id bigint, attempt integer)
  WHERE d.id = claim.id AND d.attempts = claim.attempt AND d.status = 'pending'`);

/**
 * Gives the delivery up and writes, in the same statement, an error log of source `system` in
 * its tenant (about the entity of the log it was for) saying so. That log is marked with
 * FAILED_DELIVERY_FIELD, so it is never delivered itself.
 */
export const markDeliveryFailed = (db: Database, id: string, attempt: number, reason: string, logMessage: string) => db.systemQuery(sql`
  WITH failed AS (
    UPDATE notification_deliveries SET status = 'failed', last_error = ${reason} WHERE ${stillClaimed(id, attempt)}
    RETURNING id, tenant_id, log_id, user_uuid, channel
  )
  INSERT INTO logs (tenant_id, entity_id, type, source, message, message_data)
  SELECT f.tenant_id, l.entity_id, 'error', 'system', ${logMessage},
    jsonb_build_object(${FAILED_DELIVERY_FIELD}::text, f.id, 'log_id', f.log_id, 'user_uuid', f.user_uuid, 'channel', f.channel)
  FROM failed f JOIN logs l ON l.id = f.log_id`);
