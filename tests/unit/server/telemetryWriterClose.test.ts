// Closing the telemetry writer writes what is queued, within a time limit: beyond it the batches
// not yet begun are given up (their callers are told; nothing of them was acknowledged).
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { telemetryWriter } from '../../../server/telemetry/telemetryWriter.ts';
import type { TelemetryPoint } from '../../../server/telemetry/telemetryPoint.ts';

/** A database that takes `ms` per statement and counts the batches. */
function slowDatabase(ms: number) {
  let batches = 0;
  const db = {
    systemQuery: async (query: unknown, _options?: unknown) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const text = JSON.stringify(query);
      if (text.includes('ensure_telemetry_partition')) return [];
      batches++;
      return [{ stored: 1, latest: [] }];
    },
  } as unknown as Database;
  return { db, batches: () => batches };
}

const points = (n: number, offset: number): TelemetryPoint[] =>
  Array.from({ length: n }, (_v, i) => ({ tenantId: '00000000-0000-4000-8000-000000000001', entityId: 1, key: 'k', ts: Date.UTC(2026, 0, 1) + offset * 1000 + i, value: i }));

describe('closing the telemetry writer', () => {
  it('writes everything queued when there is time', async () => {
    const { db, batches } = slowDatabase(5);
    const writer = telemetryWriter(db, { limits: { maxBatchPoints: 10, lingerMs: 0 } });
    const tickets = await Promise.all(Array.from({ length: 5 }, (_v, i) => writer.enqueue(points(10, i))));
    await writer.close();
    await Promise.all(tickets.map((ticket) => ticket.committed));
    expect(batches()).toBe(5);
  });

  it('gives up the batches not begun when its time runs out, and says so to their callers', async () => {
    const { db, batches } = slowDatabase(50);
    const writer = telemetryWriter(db, { limits: { maxBatchPoints: 10, lingerMs: 0 } });
    const tickets = await Promise.all(Array.from({ length: 20 }, (_v, i) => writer.enqueue(points(10, i))));
    const started = performance.now();
    await writer.close(120);
    expect(performance.now() - started).toBeLessThan(600); // not the 1 s that 20 batches take
    const outcomes = await Promise.allSettled(tickets.map((ticket) => ticket.committed));
    const written = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    expect(written).toBe(batches());
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(20);
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(refused.length).toBe(20 - written);
    expect(String(refused[0].reason)).toMatch(/closed before these points could be written/);
    await expect(writer.enqueue(points(1, 99))).rejects.toThrow(/closed/);
  });
});
