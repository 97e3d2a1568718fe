// Sends plain-text e-mails over SMTP (nodemailer, a few pooled connections) from SMTP_URL and
// SMTP_FROM, and says in a few words why a sending failed: what the outbox and the failure log
// keep, without the server's reply, addresses or a stack.
import { createTransport } from 'nodemailer';
import type { SmtpConfig } from '../../config.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** Stable per delivery: a resent e-mail keeps its Message-ID, so mail clients can drop the copy. */
  messageKey: string;
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** An unreachable or silent server fails a sending within these, rather than holding the sender. */
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;
const CONNECTIONS = 3;

/** The server of an SMTP URL without its credentials, for the start-up log. */
export function smtpServerName(url: string): string {
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}`;
}

/** The domain of the sender's address, for Message-IDs. */
const senderDomain = (from: string) => /@([^\s<>@]+)>?$/.exec(from)?.[1] ?? 'localhost';

export function smtpMailer({ url, from }: SmtpConfig): Mailer {
  const transport = createTransport({
    url, pool: true, maxConnections: CONNECTIONS,
    connectionTimeout: CONNECTION_TIMEOUT_MS, greetingTimeout: GREETING_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS,
  });
  const domain = senderDomain(from);
  return {
    async send({ to, subject, text, messageKey }) {
      await transport.sendMail({
        from, to, subject, text,
        messageId: `<${messageKey}@${domain}>`,
        // RFC 3834: an automatic message; out-of-office replies are not sent back to it
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    },
    close: () => transport.close(),
  };
}

const UNREACHABLE = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'EPROXY', 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH']);

/** Why a sending failed, in a few words a user may read. */
export function sendFailureReason(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  const reply = typeof responseCode === 'number' ? ` (${responseCode})` : '';
  if (code === 'EAUTH' || code === 'ENOAUTH') return `the mail server refused the sign-in${reply}`;
  if (code === 'ETLS' || code === 'EREQUIRETLS') return 'no secure connection to the mail server';
  if (code === 'EENVELOPE') return `the mail server refused the recipient${reply}`;
  if (code === 'EMESSAGE') return `the mail server refused the message${reply}`;
  if (code && UNREACHABLE.has(code)) return 'the mail server could not be reached';
  return `the mail server did not take the e-mail${reply}`;
}
