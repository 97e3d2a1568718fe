// Commands to devices (server-side RPC, table device_commands): queued, sent, delivered, then ok or
// failed by the device's answer, or expired. A new command replaces the device's unanswered ones
// of the same method, so a device that was away gets its latest, never a backlog.
import { sql } from 'drizzle-orm';
import type { Database, Tx } from './database.ts';
import { announceCommands } from './downlinkNotices.ts';
import { intArrayParam, isoTime, rows } from './rows.ts';

export const COMMAND_STATUSES = ['queued', 'sent', 'delivered', 'ok', 'failed', 'expired'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
/** Statuses of a command still waiting for the device. */
const PENDING = sql`('queued', 'sent', 'delivered')`;

export interface NewCommand {
  entityId: number;
  method: string;
  params: Record<string, unknown>;
  source: 'lighting' | 'override' | 'user';
  ttlMs: number;
}

export interface CommandRow {
  id: number;
  tenant_id: string;
  entity_id: number;
  method: string;
  params: Record<string, unknown>;
  status: CommandStatus;
  source: string;
  expires_at: string;
}

const COMMAND = sql`id, tenant_id, entity_id, method, params, status, source, ${isoTime(sql`expires_at`)} AS expires_at`;

/**
 * Queues commands (one statement for all), replacing each device's unanswered commands of the same
 * method, and announces them to the instances; answers them in order.
 */
export async function queueCommands(tx: Tx, tenantId: string, commands: NewCommand[]): Promise<CommandRow[]> {
  if (!commands.length) return [];
  const input = JSON.stringify(commands.map((c) => ({ entity_id: c.entityId, method: c.method, params: c.params, source: c.source, ttl_ms: c.ttlMs })));
  await tx.execute(sql`UPDATE device_commands c SET status = 'expired', response = '{"replaced": true}'::jsonb
    FROM jsonb_to_recordset(${input}::jsonb) AS n(entity_id int, method text)
    WHERE c.entity_id = n.entity_id AND c.method = n.method AND c.status IN ${PENDING}`);
  const queued = await rows<CommandRow>(tx, sql`INSERT INTO device_commands (tenant_id, entity_id, method, params, source, expires_at)
    SELECT ${tenantId}, n.entity_id, n.method, n.params, n.source, now() + n.ttl_ms * interval '1 millisecond'
    FROM jsonb_to_recordset(${input}::jsonb) AS n(entity_id int, method text, params jsonb, source text, ttl_ms int)
    RETURNING ${COMMAND}`);
  await announceCommands(tx, tenantId, queued.map((command) => command.id));
  return queued;
}

/** A command with the gateway its device is behind, if any, and the name the gateway knows it by. */
export interface RoutedCommand extends CommandRow { gateway_id: number | null; gateway_name: string | null }

/** Commands by id that still wait for their device (what an announcement names). */
export function waitingCommands(db: Database, tenantId: string, ids: number[]): Promise<RoutedCommand[]> {
  return db.tenantQuery<RoutedCommand>(tenantId, sql`SELECT c.id, c.tenant_id, c.entity_id, c.method, c.params, c.status, c.source,
      ${isoTime(sql`c.expires_at`)} AS expires_at, e.fk_gateway_id AS gateway_id, e.thingsboard_name AS gateway_name
    FROM device_commands c JOIN entities e ON e.id = c.entity_id
    WHERE c.id = ANY(${intArrayParam(ids)}) AND c.status IN ('queued', 'sent') AND c.expires_at > now() ORDER BY c.id`);
}

/**
 * The latest waiting command of each method of these devices and of the devices behind these
 * gateways, of every tenant (after a lost listener: their announcements may have been missed).
 */
export function waitingCommandsOfDevices(db: Database, entityIds: number[]): Promise<RoutedCommand[]> {
  if (!entityIds.length) return Promise.resolve([]);
  return db.systemQuery<RoutedCommand>(sql`SELECT DISTINCT ON (c.entity_id, c.method) c.id, c.tenant_id, c.entity_id, c.method, c.params,
      c.status, c.source, ${isoTime(sql`c.expires_at`)} AS expires_at, e.fk_gateway_id AS gateway_id, e.thingsboard_name AS gateway_name
    FROM device_commands c JOIN entities e ON e.id = c.entity_id
    WHERE (c.entity_id = ANY(${intArrayParam(entityIds)}) OR e.fk_gateway_id = ANY(${intArrayParam(entityIds)}))
      AND c.status IN ('queued', 'sent') AND c.expires_at > now()
    ORDER BY c.entity_id, c.method, c.id DESC`);
}

/** The device's latest unanswered, unexpired command of each method (what it gets when it comes back). */
export function pendingCommands(db: Database, tenantId: string, entityId: number): Promise<CommandRow[]> {
  return db.tenantQuery<CommandRow>(tenantId, sql`SELECT DISTINCT ON (method) ${COMMAND} FROM device_commands
    WHERE entity_id = ${entityId} AND status IN ('queued', 'sent') AND expires_at > now()
    ORDER BY method, id DESC`);
}

/** Moves commands on to `status` (sent or delivered) where they are still behind it. */
export async function advanceCommands(db: Database, tenantId: string, ids: number[], status: 'sent' | 'delivered') {
  if (!ids.length) return;
  const column = status === 'sent' ? sql`sent_at` : sql`delivered_at`;
  const before = status === 'sent' ? sql`('queued')` : sql`('queued', 'sent')`;
  await db.tenantQuery(tenantId, sql`UPDATE device_commands SET status = ${status}, ${column} = now()
    WHERE id = ANY(${intArrayParam(ids)}) AND status IN ${before} AND expires_at > now() RETURNING id`);
}

/** A device's answer to its command `id`; it failed when it carries an `error`. */
export interface CommandAnswer { entityId: number; id: number; response: unknown }

export const answerFailed = (response: unknown) => typeof response === 'object' && response !== null && 'error' in response;

/**
 * Devices' answers to their commands, in one statement: each command ok, or failed when its answer
 * carries an `error`. Answers the commands as they were, for those their device had waiting (an
 * answer to another device's command, or to one no longer waiting, changes nothing). One answer per
 * command: the caller keeps the first of several.
 */
export async function answerCommands(tx: Tx, answers: CommandAnswer[]): Promise<CommandRow[]> {
  if (!answers.length) return [];
  const input = JSON.stringify(answers.map((a) => ({ id: a.id, entity_id: a.entityId, failed: answerFailed(a.response), response: a.response ?? null })));
  return rows<CommandRow>(tx, sql`UPDATE device_commands c
    SET status = CASE WHEN n.failed THEN 'failed' ELSE 'ok' END, answered_at = now(), delivered_at = coalesce(c.delivered_at, now()),
      response = coalesce(n.response, 'null'::jsonb)
    FROM jsonb_to_recordset(${input}::jsonb) AS n(id int, entity_id int, failed boolean, response jsonb)
    WHERE c.id = n.id AND c.entity_id = n.entity_id AND c.status IN ${PENDING}
    RETURNING c.id, c.tenant_id, c.entity_id, c.method, c.params, c.status, c.source, ${isoTime(sql`c.expires_at`)} AS expires_at`);
}

/** Commands whose time to live has passed unanswered, across tenants, marked expired (at most `limit`). */
export function expireCommands(db: Database, limit: number): Promise<CommandRow[]> {
  return db.systemQuery<CommandRow>(sql`UPDATE device_commands SET status = 'expired' WHERE id IN (
      SELECT id FROM device_commands WHERE status IN ${PENDING} AND expires_at <= now() ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING ${COMMAND}`);
}

/** A device's recent commands, newest first (the entity view). */
export function recentCommands(db: Database, tenantId: string, entityId: number, limit: number) {
  return db.tenantQuery<CommandRow & { created_at: string; answered_at: string | null; response: unknown }>(tenantId,
    sql`SELECT ${COMMAND}, ${isoTime(sql`created_at`)} AS created_at, ${isoTime(sql`answered_at`)} AS answered_at, response
      FROM device_commands WHERE entity_id = ${entityId} ORDER BY id DESC LIMIT ${limit}`);
}
