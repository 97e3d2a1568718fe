import { describe, expect, it } from 'vitest';
import { maintenanceOccurrence } from '../../../server/time/maintenanceOccurrence.ts';

const at = (iso: string) => new Date(iso);
const iso = (occurrence: { start: Date; end: Date } | null) => occurrence && [occurrence.start.toISOString(), occurrence.end.toISOString()];

describe('maintenanceOccurrence', () => {
  const saturdayNight = { kind: 'recurring', expression: '0 22 * * 6', duration_minutes: 240 };

  it('a recurring window: the occurrence in force (begun less than its length ago), else the next, in the tenant time zone', () => {
    // Saturday 28 Nov 2026 22:00 in Bratislava is 21:00 UTC (winter time)
    expect(iso(maintenanceOccurrence(saturdayNight, 'Europe/Bratislava', at('2026-11-28T12:00:00Z')))).toEqual(['2026-11-28T21:00:00.000Z', '2026-11-29T01:00:00.000Z']);
    expect(iso(maintenanceOccurrence(saturdayNight, 'Europe/Bratislava', at('2026-11-28T23:30:00Z')))).toEqual(['2026-11-28T21:00:00.000Z', '2026-11-29T01:00:00.000Z']);
    // at its very end the next week's begins to count
    expect(iso(maintenanceOccurrence(saturdayNight, 'Europe/Bratislava', at('2026-11-29T01:00:00Z')))).toEqual(['2026-12-05T21:00:00.000Z', '2026-12-06T01:00:00.000Z']);
    // summer time: 22:00 is 20:00 UTC
    expect(iso(maintenanceOccurrence(saturdayNight, 'Europe/Bratislava', at('2026-07-01T00:00:00Z')))).toEqual(['2026-07-04T20:00:00.000Z', '2026-07-05T00:00:00.000Z']);
    expect(iso(maintenanceOccurrence(saturdayNight, 'UTC', at('2026-11-28T12:00:00Z')))).toEqual(['2026-11-28T22:00:00.000Z', '2026-11-29T02:00:00.000Z']);
  });

  it('a one-time window: its own start and end until it is over, then none', () => {
    const once = { kind: 'once', starts_at: '2026-12-01T08:00:00Z', ends_at: '2026-12-01T10:00:00Z' };
    expect(iso(maintenanceOccurrence(once, 'UTC', at('2026-11-30T00:00:00Z')))).toEqual(['2026-12-01T08:00:00.000Z', '2026-12-01T10:00:00.000Z']);
    expect(iso(maintenanceOccurrence(once, 'UTC', at('2026-12-01T09:00:00Z')))).toEqual(['2026-12-01T08:00:00.000Z', '2026-12-01T10:00:00.000Z']);
    expect(maintenanceOccurrence(once, 'UTC', at('2026-12-01T10:00:00Z'))).toBeNull();
    expect(maintenanceOccurrence({ kind: 'recurring' }, 'UTC')).toBeNull();
  });
});
