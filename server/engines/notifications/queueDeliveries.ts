// Queues the notifications of logs just written, in the writer's own transaction (the engines call
// it right after their log inserts): one pending delivery per log and user whose active rule
// matches the log and who may read its source. Calling it again for the same logs queues nothing
// more.
import type { Tx } from '../../db/database.ts';
import { insertDeliveries, logRecipients } from '../../db/notificationDeliveryQueries.ts';
import { mayReadLogSource } from './logSourceAccess.ts';

/**
 * The channels delivered through the outbox. `in_app` is not one: the log is published live to
 * its recipients (inAppRecipients), and the web app shows it to them as a notification.
 */
export const OUTBOX_CHANNELS = ['email'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];

/** Each log's users whose active rule on `channel` matches it and who may read its source. */
async function recipients(tx: Tx, tenantId: string, logIds: readonly number[], channel: string): Promise<{ logId: number; userId: string }[]> {
  if (!logIds.length) return [];
  const matched = await logRecipients(tx, tenantId, logIds, channel);
  return matched.filter(({ source, modules, permissions }) => mayReadLogSource({ modules, permissions }, source)).map(({ logId, userId }) => ({ logId, userId }));
}

/** Answers how many deliveries were queued (none for logs of another tenant, or ones queued before). */
export async function queueDeliveries(tx: Tx, tenantId: string, logIds: readonly number[], channels: readonly OutboxChannel[] = OUTBOX_CHANNELS): Promise<number> {
  let queued = 0;
  for (const channel of channels) queued += await insertDeliveries(tx, tenantId, channel, await recipients(tx, tenantId, logIds, channel));
  return queued;
}

/** Each log with the users to whom it is an in-app notification (published live after the commit; none: an empty list). */
export async function inAppRecipients(tx: Tx, tenantId: string, logIds: readonly number[]): Promise<{ logId: number; users: string[] }[]> {
  const users = new Map(logIds.map((logId) => [logId, [] as string[]]));
  for (const { logId, userId } of await recipients(tx, tenantId, logIds, 'in_app')) users.get(logId)?.push(userId);
  return [...users].map(([logId, list]) => ({ logId, users: list }));
}
