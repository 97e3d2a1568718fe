// Which windows the banner shows and when it looks again: in force from the start to just before
// the end; the next start or end after now.
import { describe, expect, it } from 'vitest';
import { inForceAt, nextBoundary } from '../../../src/maintenance/useActiveMaintenance.ts';
import type { MaintenanceWindow } from '../../../src/schemas/maintenanceWindow.ts';

const at = (iso: string) => Date.parse(iso);
const window = (start: string | null, end: string | null) =>
  ({ name: 'w', mode: 'notify-off', scope: 'tenant', schedule: { kind: 'once' }, current_start: start, current_end: end }) as MaintenanceWindow;

describe('the banner\'s windows', () => {
  const night = window('2026-11-27T22:00:00.000Z', '2026-11-28T02:00:00.000Z');

  it('are in force from their start until just before their end; an ended one-time window never', () => {
    expect(inForceAt(night, at('2026-11-27T21:59:59Z'))).toBe(false);
    expect(inForceAt(night, at('2026-11-27T22:00:00Z'))).toBe(true);
    expect(inForceAt(night, at('2026-11-28T01:59:59Z'))).toBe(true);
    expect(inForceAt(night, at('2026-11-28T02:00:00Z'))).toBe(false);
    expect(inForceAt(window(null, null), at('2026-11-28T00:00:00Z'))).toBe(false);
  });

  it('are looked at again at the next start or end of any of them', () => {
    const later = window('2026-11-28T01:00:00.000Z', '2026-11-28T03:00:00.000Z');
    expect(nextBoundary([night, later], at('2026-11-27T12:00:00Z'))).toBe(at('2026-11-27T22:00:00Z'));
    expect(nextBoundary([night, later], at('2026-11-28T00:30:00Z'))).toBe(at('2026-11-28T01:00:00Z'));
    expect(nextBoundary([night, later], at('2026-11-28T02:30:00Z'))).toBe(at('2026-11-28T03:00:00Z'));
    expect(nextBoundary([night, window(null, null)], at('2026-11-28T05:00:00Z'))).toBeUndefined();
  });
});
