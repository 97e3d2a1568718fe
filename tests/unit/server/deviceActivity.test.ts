// The throttle of lastActivityTime writes (server/ingest/deviceActivity.ts), with an injected clock
// and writer: at most one write per device and interval, due devices written by one statement, a
// bounded memory over many devices, and a failed write reported and tried again.
import { describe, expect, it } from 'vitest';
import type { LastActivity } from '../../../server/db/deviceQueries.ts';
import { deviceActivity, type ActivityLimits } from '../../../server/ingest/deviceActivity.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const INTERVAL = 60_000;

function setup(limits: Partial<ActivityLimits> = {}, fail = () => false) {
  let clock = 1_800_000_000_000;
  const statements: LastActivity[][] = [];
  const errors: unknown[] = [];
  const activity = deviceActivity({
    write: async (batch) => {
      if (fail()) throw new Error('database away');
      statements.push(batch);
      return batch.map((row) => ({ ...row, entityTypeId: 1, updatedAt: new Date(row.ms).toISOString() }));
    },
    written: () => {},
    failed: (error) => errors.push(error),
    limits: { lastActivityWriteIntervalMs: INTERVAL, lastActivityFlushMs: 1, ...limits },
    now: () => clock,
  });
  const device = (entityId: number) => ({ tenantId: TENANT, entityId });
  const flushed = () => new Promise((resolve) => setTimeout(resolve, 20));
  return { activity, statements, errors, device, flushed, advance: (ms: number) => { clock += ms; }, now: () => clock };
}

describe('deviceActivity', () => {
  it('writes the first message at once, nothing more within the interval, the first after it with its time', async () => {
    const { activity, statements, device, flushed, advance, now } = setup();
    const first = now();
    for (let i = 0; i < 10; i++) {
      activity.seen(device(7));
      advance(100);
    }
    await flushed();
    expect(statements).toEqual([[{ tenantId: TENANT, entityId: 7, ms: first }]]);
    advance(INTERVAL - 1_000 - 1); // 59,999 ms after the first
    activity.seen(device(7));
    await flushed();
    expect(statements).toHaveLength(1);
    advance(1);
    const later = now();
    activity.seen(device(7));
    await flushed();
    expect(statements[1]).toEqual([{ tenantId: TENANT, entityId: 7, ms: later }]);
  });

  it('writes the devices due within a flush in one statement', async () => {
    const { activity, statements, device, flushed } = setup();
    for (let id = 1; id <= 300; id++) activity.seen(device(id));
    await flushed();
    expect(statements).toHaveLength(1);
    expect(statements[0].map((row) => row.entityId)).toEqual(Array.from({ length: 300 }, (_v, i) => i + 1));
  });

  it('a connect or disconnect written elsewhere starts the interval again and drops an older due time', async () => {
    const { activity, statements, device, flushed, advance } = setup({ lastActivityFlushMs: 10 });
    activity.seen(device(3));
    activity.writtenNow(3);
    await flushed();
    expect(statements).toEqual([]);
    advance(1_000);
    activity.seen(device(3));
    await flushed();
    expect(statements).toEqual([]);
  });

  it('remembers a bounded number of devices: those older than the interval go first, then the oldest', async () => {
    const { activity, device, flushed, advance } = setup({ lastActivityTrackedDevices: 1_000 });
    for (let id = 1; id <= 5_000; id++) {
      activity.seen(device(id));
      advance(1);
    }
    expect(activity.tracked()).toBe(1_000);
    advance(INTERVAL);
    activity.seen(device(1));
    expect(activity.tracked()).toBe(1);
    await flushed();
  });

  it('writes many devices due at once in statements of at most 500, so that telemetry goes in between', async () => {
    const { activity, statements, device, flushed } = setup();
    for (let id = 1; id <= 1_200; id++) activity.seen(device(id));
    await flushed();
    expect(statements.map((statement) => statement.length)).toEqual([500, 500, 200]);
  });

  it('a failed write is reported and the next message of the device tries again', async () => {
    let away = true;
    const { activity, statements, errors, device, flushed, advance, now } = setup({}, () => away);
    activity.seen(device(9));
    await flushed();
    expect(errors).toHaveLength(1);
    away = false;
    advance(10);
    activity.seen(device(9));
    await flushed();
    expect(statements).toEqual([[{ tenantId: TENANT, entityId: 9, ms: now() }]]);
  });

  it('closing writes what is due at once and takes no more', async () => {
    const { activity, statements, device } = setup({ lastActivityFlushMs: 60_000 });
    activity.seen(device(1));
    await activity.close();
    expect(statements.map((batch) => batch.map((row) => row.entityId))).toEqual([[1]]);
    activity.seen(device(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statements).toHaveLength(1);
  });
});
