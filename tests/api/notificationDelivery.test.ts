// Notification e-mails: a log written by an engine (with queueDeliveries in its transaction) reaches
// every user of its tenant whose active rule matches it and who may read its source, once, in the
// user's language, through a real SMTP server; refusals and an unreachable server are retried with
// back-off, and a delivery given up leaves an error log in the tenant.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimDueEmails } from '../../server/db/notificationDeliveryQueries.ts';
import { rows } from '../../server/db/rows.ts';
import { notifications, users } from '../../server/db/schema.ts';
import { startNotificationDelivery, type NotificationDelivery } from '../../server/engines/notifications/notificationDelivery.ts';
import { SENDER_LIMITS } from '../../server/engines/notifications/emailSender.ts';
import { queueDeliveries } from '../../server/engines/notifications/queueDeliveries.ts';
import { ALL_MODULES, ALL_PERMISSIONS } from '../../server/seed/demoData.ts';
import { freePort } from '../../scripts/serverProcess.ts';
import { startSmtpInbox, type SmtpInbox } from '../support/smtpInbox.ts';
import { startTestApp, usingPostgres, type TestApp } from './harness.ts';

const FROM = 'Terrasight alerts <alerts@terrasight.test>';
/** Mustache tags, a partial, a triple mustache and HTML: all of it must arrive as written. */
const HOSTILE = 'Temperature {{type}} {{{message}}} {{> secrets}} {{#entity}}x{{/entity}} <script>alert(1)</script> &amp; above 30 °C';

let t: TestApp;
let inbox: SmtpInbox;
let city: string;
let facility: string;
const ids = { highTemperature: 0, powerDrop: 0, weeklyEnergy: 0, lamp: 0 };
const running: NotificationDelivery[] = [];
const loopErrors: unknown[] = [];

interface LogInput { type: string; source: string; message: string; messageData?: Record<string, unknown>; entityId?: number | null; timestamp?: string }

/** Writes a log as an engine does: the insert and queueDeliveries in one tenant transaction. */
async function writeLog(tenantId: string, log: LogInput): Promise<{ id: number; queued: number }> {
  return t.db.tenantTx(tenantId, async (tx) => {
    const [{ id }] = await rows<{ id: number }>(tx, sql`
      INSERT INTO logs (tenant_id, entity_id, timestamp, type, source, message, message_data)
      VALUES (${tenantId}, ${log.entityId ?? null}, coalesce(${log.timestamp ?? null}::timestamptz, now()), ${log.type}, ${log.source}, ${log.message},
        ${JSON.stringify(log.messageData ?? {})}::jsonb)
      RETURNING id`);
    return { id: Number(id), queued: await queueDeliveries(tx, tenantId, [Number(id)]) };
  });
}

interface DeliveryRow { email: string; status: string; attempts: number; lastError: string | null; dueInMs: number }

const deliveriesOf = (logId: number) => t.db.systemQuery<DeliveryRow>(sql`
  SELECT u.email, d.status, d.attempts, d.last_error AS "lastError",
    round(extract(epoch FROM d.next_attempt_at - now()) * 1000)::int AS "dueInMs"
  FROM notification_deliveries d JOIN users u ON u.id = d.user_uuid WHERE d.log_id = ${logId} ORDER BY u.email`);

const receivedAbout = (message: string) => inbox.received.filter((email) => email.text.startsWith(message));

function startDelivery(options: { smtpUrl?: string; limits?: Parameters<typeof startNotificationDelivery>[1]['limits'] } = {}) {
  const delivery = startNotificationDelivery(t.db, { smtpUrl: options.smtpUrl ?? inbox.url, from: FROM, limits: options.limits, onError: (error) => loopErrors.push(error) });
  running.push(delivery);
  return delivery;
}

async function allSettled(logId: number) {
  await vi.waitFor(async () => {
    const deliveries = await deliveriesOf(logId);
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.filter(({ status }) => status === 'pending')).toEqual([]);
  }, { timeout: 15_000, interval: 50 });
}

/** The log's one delivery once its attempt number `attempt` has failed (its lease given up for a retry). */
async function attemptSettled(logId: number, attempt: number): Promise<DeliveryRow> {
  return vi.waitFor(async () => {
    const [row] = await deliveriesOf(logId);
    expect(row.attempts).toBe(attempt);
    expect(row.dueInMs).toBeLessThan(SENDER_LIMITS.leaseMs / 2);
    return row;
  }, { timeout: 15_000, interval: 50 });
}

/** Brings the log's pending deliveries due now (instead of waiting out their back-off) and wakes the sender. */
async function dueNow(logId: number, delivery: NotificationDelivery) {
  await t.db.systemQuery(sql`UPDATE notification_deliveries SET next_attempt_at = now() WHERE log_id = ${logId} AND status = 'pending'`);
  delivery.wake();
}

/** A user of the tenant with every module and permission unless told otherwise, and their rules. */
async function addUser(tenantId: string, email: string, rules: Partial<typeof notifications.$inferInsert>[], grants: { lang?: string; modules?: string[]; permissions?: string[] } = {}) {
  await t.db.systemTx(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    const userId = existing?.id ?? (await tx.insert(users).values({
      tenantId, email, username: email, passwordHash: 'not used', lang: grants.lang,
      modules: grants.modules ?? ALL_MODULES, modulePermissions: grants.permissions ?? ALL_PERMISSIONS,
    }).returning({ id: users.id }))[0].id;
    for (const rule of rules) await tx.insert(notifications).values({ tenantId, userUuid: userId, channels: ['email'], ...rule, logFilter: rule.logFilter ?? { type: ['error'], sources: [] } });
  });
}

beforeAll(async () => {
  t = await startTestApp();
  inbox = await startSmtpInbox();
  const tenants = await t.db.systemQuery<{ id: string; name: string }>(sql`SELECT id, name FROM tenants`);
  city = tenants.find(({ name }) => name === 'Demo City')!.id;
  facility = tenants.find(({ name }) => name === 'Demo Facility')!.id;
  const named = async (table: string, name: string) =>
    (await t.db.systemQuery<{ id: number }>(sql`SELECT id FROM ${sql.identifier(table)} WHERE tenant_id = ${city} AND name = ${name}`))[0].id;
  ids.highTemperature = await named('watchers', 'High temperature');
  ids.powerDrop = await named('watchers', 'Lamp power drop');
  ids.weeklyEnergy = await named('schedulers', 'Weekly energy total');
  [{ id: ids.lamp }] = await t.db.systemQuery<{ id: number }>(sql`
    UPDATE entities SET name = '{"en": "Lamp 1", "de": "Leuchte 1"}'::jsonb
    WHERE id = (SELECT min(id) FROM entities WHERE tenant_id = ${city} AND is_gateway IS NOT TRUE AND parent_id IS NOT NULL) RETURNING id`);
  await t.db.systemQuery(sql`UPDATE tenants SET attributes = attributes || '{"timezone": "Asia/Tokyo"}'::jsonb WHERE id = ${city}`);

  // The rules of this file only (the seed gives each demo admin one).
  await t.db.systemQuery(sql`DELETE FROM notifications`);
  const watcherSource = (modelId?: number) => ({ model_name: 'watcher' as const, ...(modelId ? { model_id: modelId } : {}) });
  await addUser(city, 'admin@demo.city', [{ logFilter: { type: ['error', 'alert'], sources: [] } }]);
  await addUser(city, 'anna@demo.city', [{ logFilter: { type: ['error'], sources: [watcherSource(ids.highTemperature)] } }], { lang: 'de' });
  await addUser(city, 'minji@demo.city', [{ logFilter: { type: ['error'], sources: [watcherSource()] } }], { lang: 'ko' });
  // dashboard and logs only: may read watchers (everyone may), not schedulers
  await addUser(city, 'operator@demo.city', [{ logFilter: { type: ['error'], sources: [] } }]);
  await addUser(city, 'scheduler-fan@demo.city', [{ logFilter: { type: ['error'], sources: [{ model_name: 'scheduler' }] } }]);
  // rules that do not match a watcher's error log
  await addUser(city, 'other-type@demo.city', [{ logFilter: { type: ['warning'], sources: [] } }]);
  await addUser(city, 'other-watcher@demo.city', [{ logFilter: { type: ['error'], sources: [watcherSource(ids.powerDrop)] } }]);
  await addUser(city, 'inactive@demo.city', [{ active: false }]);
  await addUser(city, 'in-app@demo.city', [{ channels: ['in_app'] }]);
  await addUser(city, 'refused@demo.city', [{ logFilter: { type: ['critical'], sources: [] } }]);
  await addUser(city, 'patient@demo.city', [{ logFilter: { type: ['emergency'], sources: [] } }]);
  await addUser(city, 'flood@demo.city', [{ logFilter: { type: ['notice'], sources: [] } }]);
  // tenant B: a rule matching every error, and one naming tenant A's watcher
  await addUser(facility, 'admin@demo.facility', [
    { logFilter: { type: ['error', 'notice'], sources: [] } }, { logFilter: { type: ['error'], sources: [watcherSource(ids.highTemperature)] } },
  ]);
});

afterEach(async () => {
  while (running.length) await running.pop()!.stop();
  inbox.refuseRecipients(() => false);
  expect(loopErrors).toEqual([]);
  expect(inbox.connectionErrors).toEqual([]);
});

afterAll(async () => {
  await inbox?.close();
  await t?.close();
});

describe(`notification e-mails on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('reach each user whose rule matches once, in their language, with every value as text', async () => {
    const log = await writeLog(city, {
      type: 'error', source: 'watcher', message: HOSTILE, entityId: ids.lamp, timestamp: '2027-01-15T12:30:00Z',
      messageData: { source_id: ids.highTemperature, email_body: 'Check {{entity}} at {{time}}: {{message}}' },
    });
    expect(log.queued).toBe(4);
    startDelivery();
    await allSettled(log.id);

    const emails = receivedAbout(HOSTILE);
    expect(emails.map(({ to }) => to).sort()).toEqual(['admin@demo.city', 'anna@demo.city', 'minji@demo.city', 'operator@demo.city']);
    expect((await deliveriesOf(log.id)).map(({ status, attempts, lastError }) => ({ status, attempts, lastError })))
      .toEqual(Array(4).fill({ status: 'sent', attempts: 1, lastError: null }));
    const to = (address: string) => emails.find((email) => email.to === address)!;

    const english = to('admin@demo.city');
    // Intl puts a narrow no-break space before PM; the parsed text may carry a plain one
    english.text = english.text.replace(/\u202f/g, ' ');
    expect(english.from).toBe('"Terrasight alerts" <alerts@terrasight.test>');
    expect(english.subject).toBe(`Terrasight – Error: ${HOSTILE}`);
    expect(english.text).toContain(`${HOSTILE}\n\nType: Error\nEntity: Lamp 1\nTime: Jan 15, 2027, 9:30:00 PM GMT+9\n`);
    // the watcher's text, filled in once: the message inside it stays as written
    expect(english.text).toContain(`\n\nCheck Lamp 1 at Jan 15, 2027, 9:30:00 PM GMT+9: ${HOSTILE}\n`);
    expect(english.text).toContain('notification rules in Terrasight');
    expect(english.html).toBe(false);
    expect(english.headers.get('auto-submitted')).toBe('auto-generated');

    const german = to('anna@demo.city');
    expect(german.subject).toBe(`Terrasight – Fehler: ${HOSTILE}`);
    expect(german.text).toContain(`${HOSTILE}\n\nTyp: Fehler\nEntität: Leuchte 1\nZeit: 15.01.2027, 21:30:00 GMT+9\n`);
    expect(german.text).toContain('Benachrichtigungsregeln');

    const korean = to('minji@demo.city');
    expect(korean.subject).toBe(`Terrasight – 오류: ${HOSTILE}`);
    // no Korean name: the first one stored, as the web app shows it (pickLocalized)
    expect(korean.text).toContain('유형: 오류\n엔터티: Leuchte 1\n');
  });

  it('reach nobody whose rule differs in type, source, watcher, is inactive or is not by e-mail, nor another tenant', async () => {
    const log = await writeLog(city, { type: 'error', source: 'watcher', message: 'Lamp power above limit', messageData: { source_id: ids.highTemperature } });
    const nobody = ['other-type@demo.city', 'other-watcher@demo.city', 'inactive@demo.city', 'in-app@demo.city', 'scheduler-fan@demo.city', 'admin@demo.facility'];
    expect((await deliveriesOf(log.id)).map(({ email }) => email).filter((email) => nobody.includes(email))).toEqual([]);
    // tenant B's transaction finds no log of tenant A to queue, whatever it is asked
    expect(await t.db.tenantTx(facility, (tx) => queueDeliveries(tx, city, [log.id]))).toBe(0);
    expect(await t.db.tenantTx(facility, (tx) => queueDeliveries(tx, facility, [log.id]))).toBe(0);
    startDelivery();
    await allSettled(log.id);
    expect(receivedAbout('Lamp power above limit').map(({ to }) => to).sort()).toEqual(['admin@demo.city', 'anna@demo.city', 'minji@demo.city', 'operator@demo.city']);
    expect(inbox.received.filter(({ to }) => nobody.includes(to))).toEqual([]);
  });

  it('a log of the power-drop watcher reaches the rule naming that watcher, not the one naming another', async () => {
    const log = await writeLog(city, { type: 'error', source: 'watcher', message: 'Lamp power dropped', messageData: { source_id: ids.powerDrop } });
    expect((await deliveriesOf(log.id)).map(({ email }) => email)).toEqual(['admin@demo.city', 'minji@demo.city', 'operator@demo.city', 'other-watcher@demo.city']);
    startDelivery();
    await allSettled(log.id);
    expect(receivedAbout('Lamp power dropped').map(({ to }) => to).sort()).toEqual(['admin@demo.city', 'minji@demo.city', 'operator@demo.city', 'other-watcher@demo.city']);
  });

  it('reach only users who may read the source: a scheduler\'s log skips the operator', async () => {
    const log = await writeLog(city, { type: 'error', source: 'scheduler', message: 'Weekly energy total failed', messageData: { source_id: ids.weeklyEnergy } });
    expect(log.queued).toBe(2);
    startDelivery();
    await allSettled(log.id);
    expect(receivedAbout('Weekly energy total failed').map(({ to }) => to).sort()).toEqual(['admin@demo.city', 'scheduler-fan@demo.city']);
  });

  it('are queued once however often a log is queued', async () => {
    const log = await writeLog(city, { type: 'alert', source: 'watcher', message: 'Door open', messageData: { source_id: ids.highTemperature } });
    expect(log.queued).toBe(1);
    expect(await t.db.tenantTx(city, async (tx) => [await queueDeliveries(tx, city, [log.id]), await queueDeliveries(tx, city, [log.id])])).toEqual([0, 0]);
    startDelivery();
    await allSettled(log.id);
    expect(await t.db.tenantTx(city, (tx) => queueDeliveries(tx, city, [log.id]))).toBe(0);
    expect(await deliveriesOf(log.id)).toMatchObject([{ email: 'admin@demo.city', status: 'sent' }]);
    expect(receivedAbout('Door open')).toHaveLength(1);
  });

  it('are each sent once while two senders (two instances) work at the same time', async () => {
    const logs = [];
    for (let n = 0; n < 6; n += 1) logs.push(await writeLog(city, { type: 'error', source: 'watcher', message: `Overheating ${n}`, messageData: { source_id: ids.highTemperature } }));
    expect(logs.map(({ queued }) => queued)).toEqual(Array(6).fill(4));
    const limits = { batch: 3, perTenant: 3 };
    startDelivery({ limits });
    startDelivery({ limits });
    for (const log of logs) await allSettled(log.id);
    for (let n = 0; n < 6; n += 1) {
      expect(receivedAbout(`Overheating ${n}`).map(({ to }) => to).sort()).toEqual(['admin@demo.city', 'anna@demo.city', 'minji@demo.city', 'operator@demo.city']);
    }
  });

  it('a refused recipient is tried again after 30 s, 1, 2 and 4 minutes, then given up with one error log', async () => {
    inbox.refuseRecipients((address) => address === 'refused@demo.city');
    const log = await writeLog(city, { type: 'critical', source: 'watcher', message: 'Cabinet flooded', entityId: ids.lamp, messageData: { source_id: ids.highTemperature } });
    expect(log.queued).toBe(1);
    const delivery = startDelivery();
    for (const [attempt, backOffMs] of [[1, 30_000], [2, 60_000], [3, 120_000], [4, 240_000]]) {
      if (attempt > 1) await dueNow(log.id, delivery);
      const row = await attemptSettled(log.id, attempt);
      expect(row).toMatchObject({ status: 'pending', lastError: 'the mail server refused the recipient (550)' });
      expect(row.dueInMs).toBeGreaterThan(backOffMs - 5_000);
      expect(row.dueInMs).toBeLessThanOrEqual(backOffMs);
    }
    await dueNow(log.id, delivery);
    await allSettled(log.id);
    expect(await deliveriesOf(log.id)).toMatchObject([{ status: 'failed', attempts: 5, lastError: 'the mail server refused the recipient (550)' }]);
    expect(receivedAbout('Cabinet flooded')).toEqual([]);

    const failures = await t.db.tenantTx(city, (tx) => rows<{ id: number; type: string; source: string; message: string; entity_id: number }>(tx, sql`
      SELECT id, type, source, message, entity_id FROM logs WHERE message LIKE '%Cabinet flooded%' AND source = 'system'`));
    expect(failures).toEqual([{
      id: expect.anything(), type: 'error', source: 'system', entity_id: ids.lamp,
      message: 'E-mail to refused@demo.city about "Cabinet flooded" failed: the mail server refused the recipient (550)',
    }]);
    // the admin's rule takes every error of any source, yet a failure is never delivered itself
    expect(await t.db.tenantTx(city, (tx) => queueDeliveries(tx, city, [Number(failures[0].id)]))).toBe(0);
  });

  it('a mail server that is down is tried again, and the e-mail arrives once it is up', async () => {
    const port = await freePort(); // nothing listens there yet
    const log = await writeLog(city, { type: 'emergency', source: 'watcher', message: 'Gas leak', messageData: { source_id: ids.highTemperature } });
    const delivery = startDelivery({ smtpUrl: `smtp://127.0.0.1:${port}` });
    await attemptSettled(log.id, 1);
    expect(await deliveriesOf(log.id)).toMatchObject([{ email: 'patient@demo.city', status: 'pending', lastError: 'the mail server could not be reached' }]);
    const lateInbox = await startSmtpInbox(port);
    try {
      await dueNow(log.id, delivery);
      await allSettled(log.id);
      expect(await deliveriesOf(log.id)).toMatchObject([{ status: 'sent', attempts: 2, lastError: null }]);
      expect(lateInbox.received.map(({ to, subject }) => ({ to, subject }))).toEqual([{ to: 'patient@demo.city', subject: 'Terrasight – Emergency: Gas leak' }]);
    } finally {
      await delivery.stop(); // its pooled connection would hold the server's close
      await lateInbox.close();
    }
  });

  it('a sender that stops finishes the e-mail under way and gives the others back, due at once', async () => {
    const logs = [];
    for (const message of ['Pump 1 failed', 'Pump 2 failed', 'Pump 3 failed']) logs.push(await writeLog(city, { type: 'emergency', source: 'system', message }));
    const slowServer = inbox.hold();
    const delivery = startDelivery({ limits: { sendsAtOnce: 1 } });
    await slowServer.arrived;
    const stopped = delivery.stop();
    slowServer.release();
    await stopped;
    const rowsAfterStop = (await Promise.all(logs.map(({ id }) => deliveriesOf(id)))).flat();
    expect(rowsAfterStop.map(({ status, attempts }) => ({ status, attempts }))).toEqual([
      { status: 'sent', attempts: 1 }, { status: 'pending', attempts: 0 }, { status: 'pending', attempts: 0 },
    ]);
    expect(rowsAfterStop.slice(1).every(({ dueInMs }) => dueInMs <= 0)).toBe(true);
    // the next sender (another instance, or this one started again) sends the rest, each once
    startDelivery();
    for (const log of logs) await allSettled(log.id);
    expect(inbox.received.filter(({ subject }) => subject.includes('Pump')).map(({ subject }) => subject).sort())
      .toEqual(['Terrasight – Emergency: Pump 1 failed', 'Terrasight – Emergency: Pump 2 failed', 'Terrasight – Emergency: Pump 3 failed']);
  });

  it('one tenant\'s flood does not hold another\'s e-mails back', async () => {
    const flood = [];
    for (let n = 0; n < 25; n += 1) flood.push(await writeLog(city, { type: 'notice', source: 'system', message: `Flood ${n}` }));
    const other = await writeLog(facility, { type: 'notice', source: 'system', message: 'Facility notice' });
    expect([...flood, other].every(({ queued }) => queued === 1)).toBe(true);
    const claimed = await claimDueEmails(t.db, { batch: 50, perTenant: 20, leaseMs: 60_000 });
    expect(claimed.filter(({ tenantId }) => tenantId === city)).toHaveLength(20);
    expect(claimed.filter(({ tenantId }) => tenantId === facility).map(({ message }) => message)).toEqual(['Facility notice']);
    await t.db.systemQuery(sql`DELETE FROM notification_deliveries WHERE status = 'pending'`);
  });
});
