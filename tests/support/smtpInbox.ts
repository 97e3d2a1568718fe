// A real SMTP server for tests (smtp-server, no sign-in, no TLS) on 127.0.0.1 that keeps what it
// receives, parsed (mailparser), and can refuse chosen recipients as a mail server does (550) or
// keep messages waiting as a slow one does.
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail { to: string; from: string; subject: string; text: string; html: string | false; headers: ParsedMail['headers'] }

export interface SmtpInbox {
  url: string;
  port: number;
  received: ReceivedEmail[];
  /** Errors of client connections other than a dropped connection (the tests expect none). */
  connectionErrors: Error[];
  /** Answers 550 to RCPT TO for the addresses `refused` says so of. */
  refuseRecipients(refused: (address: string) => boolean): void;
  /** Keeps the next messages' acceptance waiting (a slow server) until `release`; `arrived` resolves when the first is there. */
  hold(): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

const addressText = (address: ParsedMail['to'] | ParsedMail['from']) => [address ?? []].flat().map((item) => item.text).join(', ');

export async function startSmtpInbox(port = 0): Promise<SmtpInbox> {
  const received: ReceivedEmail[] = [];
  const connectionErrors: Error[] = [];
  let refused: (address: string) => boolean = () => false;
  let holding: { arrived: () => void; released: Promise<void> } | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refused(address.address)) return callback();
      callback(Object.assign(new Error('5.1.1 Mailbox unavailable'), { responseCode: 550 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(async (mail) => {
        if (holding) {
          holding.arrived();
          await holding.released;
        }
        received.push({ to: addressText(mail.to), from: addressText(mail.from), subject: mail.subject ?? '', text: mail.text ?? '', html: mail.html ?? false, headers: mail.headers });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // smtp-server re-emits a client connection's errors on the server: a sender that stops drops
  // its pooled connection (ECONNRESET), which is the client's business, not a crash of the tests
  server.removeAllListeners('error');
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') connectionErrors.push(error);
  });
  const { port: listening } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${listening}`,
    port: listening,
    received,
    connectionErrors,
    refuseRecipients(rule) {
      refused = rule;
    },
    hold() {
      let arrived = () => {};
      let release = () => {};
      const arrival = new Promise<void>((resolve) => { arrived = resolve; });
      holding = { arrived, released: new Promise<void>((resolve) => { release = resolve; }) };
      return {
        arrived: arrival,
        release() {
          holding = undefined;
          release();
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
