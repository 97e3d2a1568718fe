// One round of the e-mail sender: claims the due deliveries (a batch across tenants, a few of each),
// sends them a few at a time, and settles each: sent, tried again later (deliveryBackOff.ts), or
// given up with an error log in its tenant saying so.
import type { Database } from '../../db/database.ts';
import {
  claimDueEmails, markDeliveryFailed, markDeliverySent, releaseDeliveries, scheduleDeliveryRetry, type ClaimedEmail, type ClaimLimits,
} from '../../db/notificationDeliveryQueries.ts';
import { retryDelayMs } from './deliveryBackOff.ts';
import { emailContent } from './emailContent.ts';
import { sendFailureReason, type Mailer } from './smtpMailer.ts';

export interface SenderLimits extends ClaimLimits {
  /** E-mails being sent at the same time. */
  sendsAtOnce: number;
}

/** The lease outlasts a round: 50 e-mails, three at a time, each within the mailer's timeouts. */
export const SENDER_LIMITS: SenderLimits = { batch: 50, perTenant: 20, leaseMs: 10 * 60_000, sendsAtOnce: 3 };

/** How much of the log's message the failure log quotes. */
const QUOTED_MESSAGE_LENGTH = 200;

const quoted = (message: string) => (message.length > QUOTED_MESSAGE_LENGTH ? `${message.slice(0, QUOTED_MESSAGE_LENGTH - 1)}…` : message);

export const failureLogMessage = (address: string, logMessage: string, reason: string) =>
  `E-mail to ${address} about "${quoted(logMessage)}" failed: ${reason}`;

async function deliver(db: Database, mailer: Mailer, claim: ClaimedEmail): Promise<void> {
  let reason: string | undefined;
  try {
    await mailer.send({ to: claim.email, ...emailContent(claim), messageKey: `notification-${claim.tenantId}-${claim.id}` });
  } catch (error) {
    reason = sendFailureReason(error);
  }
  if (reason === undefined) {
    await markDeliverySent(db, claim.id, claim.attempt);
    return;
  }
  const delayMs = retryDelayMs(claim.attempt);
  if (delayMs !== undefined) await scheduleDeliveryRetry(db, claim.id, claim.attempt, delayMs, reason);
  else await markDeliveryFailed(db, claim.id, claim.attempt, reason, failureLogMessage(claim.email, claim.message, reason));
}

/**
 * Answers true when it claimed a whole batch (more may be due). Once `stopping()` says so, no
 * further e-mail is begun, and the claimed ones not begun are given back, due at once.
 */
export async function sendDueEmails(db: Database, mailer: Mailer, limits: SenderLimits, stopping: () => boolean): Promise<boolean> {
  const claimed = await claimDueEmails(db, limits);
  const waiting = [...claimed];
  const sendInTurn = async () => {
    while (waiting.length && !stopping()) await deliver(db, mailer, waiting.shift()!);
  };
  const outcomes = await Promise.allSettled(Array.from({ length: limits.sendsAtOnce }, sendInTurn));
  if (waiting.length) await releaseDeliveries(db, waiting);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return claimed.length === limits.batch;
}
