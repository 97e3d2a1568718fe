// The notification delivery engine: started with the server when SMTP_URL is set. Engines that
// write logs (watchers, schedulers) call `queueDeliveries` in the transaction of their log insert
// and `wake` after it committed; the sender then works through the outbox (emailSender.ts) every
// round, straight on while a round finds a full batch, on whichever instance claims the rows.
import type { Database, Tx } from '../../db/database.ts';
import { startWorkLoop } from '../../workLoop.ts';
import { SENDER_LIMITS, sendDueEmails, type SenderLimits } from './emailSender.ts';
import { queueDeliveries } from './queueDeliveries.ts';
import { smtpMailer } from './smtpMailer.ts';

export interface NotificationDelivery {
  /** In the transaction that wrote the logs: queues their notifications; answers how many. */
  queueDeliveries(tx: Tx, tenantId: string, logIds: readonly number[]): Promise<number>;
  /** After that transaction committed: sends now rather than at the next round. */
  wake(): void;
  /** Begins no further e-mail, waits for those under way. Before the database closes. */
  stop(): Promise<void>;
}

export interface NotificationDeliveryOptions {
  smtpUrl: string;
  from: string;
  /** A round that failed (the database away): told, and the round is tried again soon. */
  onError: (error: unknown) => void;
  /** Rounds this far apart when nothing wakes the sender: retries come due in the meantime. */
  everyMs?: number;
  limits?: Partial<SenderLimits>;
}

const ROUND_MS = 15_000;

export function startNotificationDelivery(db: Database, { smtpUrl, from, onError, everyMs = ROUND_MS, limits }: NotificationDeliveryOptions): NotificationDelivery {
  const mailer = smtpMailer({ url: smtpUrl, from });
  const senderLimits = { ...SENDER_LIMITS, ...limits };
  let stopping = false;
  const loop = startWorkLoop({ work: () => sendDueEmails(db, mailer, senderLimits, () => stopping), everyMs, onError });
  return {
    queueDeliveries: (tx, tenantId, logIds) => queueDeliveries(tx, tenantId, logIds),
    wake: () => loop.wake(),
    async stop() {
      stopping = true;
      await loop.stop();
      mailer.close();
    },
  };
}

/** E-mail is off (no SMTP_URL): nothing is queued, so nothing waits for a sender that never comes. */
export const NOTIFICATIONS_OFF: NotificationDelivery = {
  queueDeliveries: async () => 0,
  wake: () => {},
  stop: async () => {},
};
