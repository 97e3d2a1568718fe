// Queues the notifications of a log just written, in the writer's own transaction (the watcher and
// scheduler engines call it right after their log insert): one pending delivery per user whose
// active rule matches the log and who may read its source. Calling it again for the same log
// queues nothing more.
import type { Tx } from '../../db/database.ts';
import { insertDeliveries, logRecipients } from '../../db/notificationDeliveryQueries.ts';
import { mayReadLogSource } from './logSourceAccess.ts';

/**
 * The channels delivered through the outbox. `in_app` is not one: the web app's bell shows logs
 * from its live subscriptions.
 */
export const OUTBOX_CHANNELS = ['email'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];

/** Answers how many deliveries were queued (none for a log of another tenant, or one queued before). */
export async function queueDeliveries(tx: Tx, tenantId: string, logId: number, channels: readonly OutboxChannel[] = OUTBOX_CHANNELS): Promise<number> {
  let queued = 0;
  for (const channel of channels) {
    const recipients = await logRecipients(tx, tenantId, logId, channel);
    const allowed = recipients.filter(({ source, modules, permissions }) => mayReadLogSource({ modules, permissions }, source));
    queued += await insertDeliveries(tx, tenantId, logId, channel, allowed.map(({ userId }) => userId));
  }
  return queued;
}
