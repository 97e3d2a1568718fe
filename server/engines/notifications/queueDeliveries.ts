// Queues the notifications of a log just written, in the writer's own transaction (the watcher and
// scheduler engines call it right after their log insert): one pending delivery per user whose
// active rule matches the log and who may read its source. Calling it again for the same log
// queues nothing more.
import type { Tx } from '../../db/database.ts';
import { insertDeliveries, logRecipients } from '../../db/notificationDeliveryQueries.ts';
import { mayReadLogSource } from './logSourceAccess.ts';

/**
 * The channels delivered through the outbox. `in_app` is not one: the log is published live to
 * its recipients (inAppRecipients), and the web app shows it to them as a notification.
 */
export const OUTBOX_CHANNELS = ['email'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];

/** The users whose active rule on `channel` matches the log and who may read its source. */
async function recipients(tx: Tx, tenantId: string, logId: number, channel: string): Promise<string[]> {
  const matched = await logRecipients(tx, tenantId, logId, channel);
  return matched.filter(({ source, modules, permissions }) => mayReadLogSource({ modules, permissions }, source)).map(({ userId }) => userId);
}

/** Answers how many deliveries were queued (none for a log of another tenant, or one queued before). */
export async function queueDeliveries(tx: Tx, tenantId: string, logId: number, channels: readonly OutboxChannel[] = OUTBOX_CHANNELS): Promise<number> {
  let queued = 0;
  for (const channel of channels) queued += await insertDeliveries(tx, tenantId, logId, channel, await recipients(tx, tenantId, logId, channel));
  return queued;
}

/** The users to whom the log is an in-app notification (published live after the commit). */
export const inAppRecipients = (tx: Tx, tenantId: string, logId: number) => recipients(tx, tenantId, logId, 'in_app');
