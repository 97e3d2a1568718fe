// Maintenance windows as users, API clients and devices meet them: only the modes a user's token
// allows can be started, changed or ended; a window is in force during its occurrence (one-time,
// or recurring in the tenant's time zone) and every change, start and end is logged; read-only
// refuses every write of the tenant with 503 (REST, GraphQL, the device attribute API) while reads
// and telemetry go on; notify-off logs a watcher's alert and its recovery without sending them;
// device maintenance leaves the covered devices out of alarms and KPIs; another tenant sees none of it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceApp, type DemoDevice } from '../support/devices.ts';
import { startSmtpInbox, type SmtpInbox } from '../support/smtpInbox.ts';
import { until } from '../support/until.ts';
import type { TestApp } from './harness.ts';

const ENGINE_EVERY_MS = 200;
const WAIT_MS = 8_000;
let t: TestApp;
let lamps: DemoDevice[];
let facilityLamps: DemoDevice[];
let admin: string;
let operator: string;
let facilityAdmin: string;
let inbox: SmtpInbox;
let lightingGroup: number;

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const onceNow = (minutes = 60) => ({ kind: 'once', starts_at: minutesFromNow(-1), ends_at: minutesFromNow(minutes) });

async function startWindow(input: Record<string, unknown>, token = admin): Promise<{ id: number } & Record<string, unknown>> {
  const created = await t.post('/create-maintenance-window', { input: { scope: 'tenant', schedule: onceNow(), ...input } }, token);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body;
}
const endWindow = async (id: number, token = admin) => expect((await t.post('/delete-maintenance-window', { id }, token)).status).toBe(200);

const graphql = (query: string, token: string, variables: Record<string, unknown> = {}) => t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });

const sendDevice = (device: DemoDevice, kind: 'telemetry' | 'attributes', body: unknown) => t.app.inject({
  method: 'POST', url: `/api/v1/${device.token}/${kind}`, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' },
});

interface LogRow { source: string; type: string; message: string; data: Record<string, unknown> }
const logsAbout = (text: string) => t.db.systemQuery<LogRow>(sql`SELECT source, type, message, message_data AS data FROM logs
  WHERE message LIKE ${`%${text}%`} ORDER BY id`);

beforeAll(async () => {
  inbox = await startSmtpInbox();
  ({ t, lamps, facilityLamps } = await startDeviceApp({ engines: true, enginesEveryMs: ENGINE_EVERY_MS, smtp: { url: inbox.url, from: 'alerts@terrasight.test' } }));
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facilityAdmin = (await t.login('admin@demo.facility')).access_token;
  [{ id: lightingGroup }] = await t.db.systemQuery<{ id: number }>(sql`SELECT g.id FROM groups g JOIN tenants tn ON tn.id = g.tenant_id
    WHERE tn.name = 'Demo City' AND g.name = 'Lighting'`);
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

describe('who may start which mode', () => {
  it('everyone of the tenant sees the windows; only a user whose token allows the mode starts, changes or ends it', async () => {
    const window = await startWindow({ name: 'Firmware roll-out', mode: 'notify-off' });
    expect(window).toMatchObject({ name: 'Firmware roll-out', mode: 'notify-off', scope: 'tenant', active: true });
    expect(Date.parse(window.current_end as string)).toBeGreaterThan(Date.now());

    // the operator's token allows no mode: it reads the windows (the banner) but changes none
    const listed = await t.get('/maintenance-window-list', operator);
    expect(listed.status).toBe(200);
    expect(listed.body.map((row: { name: string }) => row.name)).toContain('Firmware roll-out');
    for (const [path, body] of [
      ['/create-maintenance-window', { input: { name: 'Mine', mode: 'notify-off', scope: 'tenant', schedule: onceNow() } }],
      ['/update-maintenance-window', { input: { id: window.id, name: 'Renamed' } }],
      ['/delete-maintenance-window', { id: window.id }],
    ] as const) {
      const refused = await t.post(path, body, operator);
      expect(refused.status, path).toBe(403);
    }

    // a user allowed notify-off only may not start read-only, nor end someone's read-only window
    await t.db.systemQuery(sql`UPDATE users SET maintenance_modes = '{notify-off}' WHERE email = 'operator@demo.city'`);
    const limited = (await t.login('operator@demo.city')).access_token;
    const readOnly = await t.post('/create-maintenance-window', { input: { name: 'Freeze', mode: 'read-only', scope: 'tenant', schedule: onceNow() } }, limited);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.errors[0]).toMatchObject({ code: 'MAINTENANCE_MODE_NOT_ALLOWED', field: 'mode' });
    const own = await startWindow({ name: 'Operator quiet hour', mode: 'notify-off' }, limited);
    expect((await t.post('/update-maintenance-window', { input: { id: own.id, mode: 'device-maintenance' } }, limited)).status).toBe(403);
    await endWindow(own.id, limited);
    // nor turn an administrator's read-only window into a mode it holds: an update needs the mode as stored too
    const freeze = await startWindow({ name: 'Tomorrow\'s freeze', mode: 'read-only', schedule: { kind: 'once', starts_at: minutesFromNow(24 * 60), ends_at: minutesFromNow(25 * 60) } });
    const turned = await t.post('/update-maintenance-window', { input: { id: freeze.id, mode: 'notify-off' } }, limited);
    expect(turned.status).toBe(403);
    expect(turned.body.errors[0]).toMatchObject({ code: 'MAINTENANCE_MODE_NOT_ALLOWED', params: { mode: 'read-only' } });
    expect((await t.get('/maintenance-window-list', admin)).body.find((row: { id: number }) => row.id === freeze.id)).toMatchObject({ mode: 'read-only' });
    await endWindow(freeze.id);
    await t.db.systemQuery(sql`UPDATE users SET maintenance_modes = '{}' WHERE email = 'operator@demo.city'`);

    // another tenant neither sees nor touches it
    expect((await t.get('/maintenance-window-list', facilityAdmin)).body).toEqual([]);
    expect((await t.post('/delete-maintenance-window', { id: window.id }, facilityAdmin)).status).toBe(404);
    await endWindow(window.id);

    // each change is logged, with its author (the engine may have logged its start meanwhile)
    const audit = (await logsAbout('"Operator quiet hour"')).filter((log) => log.source === 'user');
    expect(audit.map((log) => [log.source, log.message])).toEqual([
      ['user', 'Maintenance window "Operator quiet hour" (notify-off) scheduled'],
      ['user', 'Maintenance window "Operator quiet hour" (notify-off) removed'],
    ]);
  });

  it('refuses bad windows with their codes and keeps nothing', async () => {
    const [before] = await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM maintenance_windows`);
    const facilityRegion = (await t.db.systemQuery<{ id: number }>(sql`SELECT e.id FROM entities e JOIN tenants tn ON tn.id = e.tenant_id
      WHERE tn.name = 'Demo Facility' AND e.parent_id IS NULL LIMIT 1`))[0].id;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: 'Backwards', mode: 'notify-off', scope: 'tenant', schedule: { kind: 'once', starts_at: minutesFromNow(60), ends_at: minutesFromNow(1) } }, 400, 'MAINTENANCE_ENDS_BEFORE_START'],
      [{ name: 'Too long', mode: 'notify-off', scope: 'tenant', schedule: { kind: 'once', starts_at: minutesFromNow(0), ends_at: minutesFromNow(400 * 24 * 60) } }, 400, 'MAINTENANCE_TOO_LONG'],
      [{ name: 'Regional freeze', mode: 'read-only', scope: 'group', group_id: lightingGroup, schedule: onceNow() }, 400, 'MAINTENANCE_READ_ONLY_TENANT'],
      [{ name: 'No region', mode: 'notify-off', scope: 'region', schedule: onceNow() }, 400, 'VALIDATION'],
      [{ name: 'Bad cron', mode: 'notify-off', scope: 'tenant', schedule: { kind: 'recurring', expression: '61 * * * *', duration_minutes: 30 } }, 400, 'CRON_INVALID'],
      // each field in its range (SPEC §5), but no such day: said, not a 500
      ...['0 0 31 2 *', '0 3 30 2 *', '0 0 31 4 *', '0 0 0 * *'].map((expression): [Record<string, unknown>, number, string] =>
        [{ name: `Never ${expression}`, mode: 'notify-off', scope: 'tenant', schedule: { kind: 'recurring', expression, duration_minutes: 30 } }, 400, 'CRON_NEVER_RUNS']),
      [{ name: 'Too long weekly', mode: 'notify-off', scope: 'tenant', schedule: { kind: 'recurring', expression: '0 1 * * 1', duration_minutes: 20_000 } }, 400, 'NUMBER_MAX'],
      [{ name: 'x'.repeat(100_000), mode: 'notify-off', scope: 'tenant', schedule: onceNow() }, 400, 'VALIDATION'],
      [{ name: 'Unknown mode', mode: 'panic', scope: 'tenant', schedule: onceNow() }, 400, 'VALIDATION'],
    ];
    for (const [input, status, code] of cases) {
      const answer = await t.post('/create-maintenance-window', { input }, admin);
      expect(answer.status, String(input.name).slice(0, 20)).toBe(status);
      expect(answer.body.errors[0].code, String(input.name).slice(0, 20)).toBe(code);
      if (code === 'CRON_NEVER_RUNS') expect(answer.body.errors[0]).toMatchObject({ message: 'This schedule never runs', field: 'schedule.expression' });
    }
    // another tenant's region: as if it did not exist
    const foreign = await t.post('/create-maintenance-window', { input: { name: 'Theirs', mode: 'notify-off', scope: 'region', region_id: facilityRegion, schedule: onceNow() } }, admin);
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBeLessThan(500);
    const [after] = await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM maintenance_windows`);
    expect(after.count).toBe(before.count);
  });
});

describe('the schedule', () => {
  it('a recurring window is in force during its occurrence in the tenant time zone, and waits for the next one otherwise', async () => {
    const always = await startWindow({ name: 'Every minute', mode: 'notify-off', schedule: { kind: 'recurring', expression: '* * * * *', duration_minutes: 2 } });
    expect(always.active).toBe(true);
    const later = await startWindow({ name: 'Yearly', mode: 'notify-off', schedule: { kind: 'recurring', expression: '0 3 1 1 *', duration_minutes: 60 } });
    const start = new Date(later.current_start as string);
    expect(later.active).toBe(Date.now() >= start.getTime() && Date.now() < Date.parse(later.current_end as string));
    expect(Date.parse(later.current_end as string) - start.getTime()).toBe(3_600_000);
    // 03:00 on 1 January in UTC (the tenant has no time zone)
    expect([start.getUTCMonth(), start.getUTCDate(), start.getUTCHours()]).toEqual([0, 1, 3]);
    await endWindow(always.id);
    await endWindow(later.id);
  });

  it('the engine logs a start and an end once, and a one-time window is over after it', async () => {
    const window = await startWindow({ name: 'Two seconds', mode: 'notify-off', schedule: { kind: 'once', starts_at: minutesFromNow(0), ends_at: new Date(Date.now() + 2_000).toISOString() } });
    const logs = await until(() => logsAbout('"Two seconds" (notify-off)'), (found) => found.some((log) => log.message.endsWith('ended')), WAIT_MS);
    expect(logs.map((log) => [log.source, log.message])).toEqual([
      ['user', 'Maintenance window "Two seconds" (notify-off) scheduled'],
      ['system', 'Maintenance window "Two seconds" (notify-off) started'],
      ['system', 'Maintenance window "Two seconds" (notify-off) ended'],
    ]);
    const [over] = (await t.get('/maintenance-window-list', admin)).body.filter((row: { id: number }) => row.id === window.id);
    expect(over).toMatchObject({ active: false, current_start: null, current_end: null });
    await endWindow(window.id);
  });
});

describe('read-only', () => {
  it('refuses every write of the tenant with 503 and its code; reads, previews, telemetry, other tenants and ending the window go on', async () => {
    const window = await startWindow({ name: 'Database upgrade', mode: 'read-only' });
    const lamp = lamps[0];

    const rest = await t.send({
      method: 'POST', path: '/create-watcher', token: admin,
      body: { input: { name: 'During upgrade', query: { key: 'power', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 1 } } },
    });
    expect(rest.status).toBe(503);
    expect(rest.body.errors[0]).toMatchObject({ code: 'MAINTENANCE_READ_ONLY', params: { until: window.current_end } });
    // until the window's end: about an hour
    expect(Number(rest.headers['retry-after'])).toBeGreaterThan(3_500);

    const mutation = await graphql('mutation { create_watcher(name: "During upgrade", query: {key: "power", aggregation: "latest-value"}, condition: {operator: ">", kind: "number", value: 1}) { id } }', admin);
    expect(mutation.status).toBe(503);
    expect(mutation.body.errors[0].extensions.code).toBe('MAINTENANCE_READ_ONLY');
    // a permission refusal still comes first
    expect((await t.post('/create-watcher', { input: { name: 'x' } }, operator)).status).toBe(403);

    expect((await sendDevice(lamp, 'attributes', { firmware: '2.0' })).statusCode).toBe(503);
    expect((await sendDevice(lamp, 'telemetry', { power: 5 })).statusCode).toBe(200);
    expect((await t.get('/watcher-list', admin)).status).toBe(200);
    const query = await graphql('{ watcher_list { id } }', admin);
    expect(query.status).toBe(200);
    expect(query.body.errors).toBeUndefined();

    // the other tenant writes as before
    const theirs = await t.post('/create-watcher', { input: { name: 'Elsewhere', query: { key: 'power', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 1 } } }, facilityAdmin);
    expect(theirs.status).toBe(200);
    expect((await sendDevice(facilityLamps[0], 'attributes', { firmware: '2.0' })).statusCode).toBe(200);

    // nothing was written, and the window itself can be ended: then writes go on
    const [stored] = await t.db.systemQuery<{ firmware: string | null }>(sql`SELECT attributes->>'firmware' AS firmware FROM entities WHERE id = ${lamp.id}`);
    expect(stored.firmware).toBeNull();
    await endWindow(window.id);
    expect((await sendDevice(lamp, 'attributes', { firmware: '2.0' })).statusCode).toBe(200);
  });
});

describe('notify-off', () => {
  it('a watcher alerts and recovers in the log, and nothing is sent, not even the recovery after the window', async () => {
    const lamp = lamps[1];
    await sendDevice(lamp, 'telemetry', { power: 10 });
    const window = await startWindow({ name: 'Quiet night', mode: 'notify-off', scope: 'group', group_id: lightingGroup });
    const created = await t.post('/create-watcher', { input: {
      name: 'Quiet lamp power', interval: 3_600, query: { key: 'power', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 50 },
      entity_ids: [lamp.id], definition: { severity: 'error' },
    } }, admin);
    expect(created.status).toBe(200);
    await sendDevice(lamp, 'telemetry', { power: 95 });
    const alerted = await until(() => logsAbout('(Quiet lamp power)'), (found) => found.length === 1, WAIT_MS);
    expect(alerted[0].data).toMatchObject({ transition: 'alert', notified: false, maintenance: 'notify-off' });
    await endWindow(window.id);
    await sendDevice(lamp, 'telemetry', { power: 5 });
    const both = await until(() => logsAbout('(Quiet lamp power)'), (found) => found.length === 2, WAIT_MS);
    expect(both[1].data).toMatchObject({ transition: 'recover', notified: false });
    // a later problem outside any window is sent as usual (and so proves the sender works)
    await sendDevice(lamp, 'telemetry', { power: 99 });
    const mails = await until(async () => inbox.received.filter((mail) => mail.text.includes('Quiet lamp power')), (found) => found.length > 0, WAIT_MS);
    expect(mails.map((mail) => mail.text.includes('power 99 > 50'))).toEqual([true]);
    const [{ count }] = await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM notification_deliveries d JOIN logs l ON l.id = d.log_id
      WHERE l.message LIKE '%(Quiet lamp power)%'`);
    expect(count).toBe(1);
  });
});

describe('device maintenance', () => {
  it('leaves the covered devices out of alarms and KPIs while it is in force', async () => {
    const [lamp, other] = [lamps[2], lamps[3]];
    const kpi = { query: [{ key: 'maintenance_probe', aggregation: 'sum', entity_ids: [lamp.id, other.id] }], definition: { chart: 'bar', time_range: '1h', series: 'per_entity' } };
    await sendDevice(lamp, 'telemetry', { maintenance_probe: 7 });
    await sendDevice(other, 'telemetry', { maintenance_probe: 3 });
    const seriesEntities = async () => {
      const answer = await t.post('/kpi-preview', kpi, admin);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return JSON.stringify(answer.body);
    };
    await until(seriesEntities, (text) => text.includes(`"entity_id":${lamp.id}`) && text.includes(`"entity_id":${other.id}`), WAIT_MS);

    const lampOnly = await t.db.systemQuery<{ id: number }>(sql`INSERT INTO groups (tenant_id, name) VALUES (${lamp.tenantId}, 'Lamp under repair') RETURNING id`);
    await t.db.systemQuery(sql`INSERT INTO entity_groups (tenant_id, entity_id, group_id) VALUES (${lamp.tenantId}, ${lamp.id}, ${lampOnly[0].id})`);
    const window = await startWindow({ name: 'Lamp repair', mode: 'device-maintenance', scope: 'group', group_id: lampOnly[0].id });
    // the map marks what it covers
    expect(window.covered_entity_ids).toEqual([lamp.id]);
    const during = await seriesEntities();
    expect(during).not.toContain(`"entity_id":${lamp.id}`);
    expect(during).toContain(`"entity_id":${other.id}`);

    const watcher = await t.post('/create-watcher', { input: {
      name: 'Probe high', interval: 3_600, query: { key: 'maintenance_probe', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 1 },
      entity_ids: [lamp.id, other.id],
    } }, admin);
    await sendDevice(lamp, 'telemetry', { maintenance_probe: 8 });
    await sendDevice(other, 'telemetry', { maintenance_probe: 4 });
    const alerts = await until(() => logsAbout('(Probe high)'), (found) => found.length >= 1, WAIT_MS);
    await new Promise((resolve) => setTimeout(resolve, 4 * ENGINE_EVERY_MS));
    expect((await logsAbout('(Probe high)')).map((log) => log.message)).toEqual([alerts[0].message]);
    expect(alerts[0].message).toContain(other.name);

    await endWindow(window.id);
    expect(await seriesEntities()).toContain(`"entity_id":${lamp.id}`);
    expect(watcher.status).toBe(200);
  });
});
