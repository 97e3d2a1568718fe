// The maintenance engine: logs each occurrence's start and end of every tenant's maintenance
// windows once (the audit trail of what was in force when) and moves a recurring window on to its
// next occurrence. Whether a window is in force never waits for it: that is read from the
// occurrence itself (server/db/maintenanceQueries.ts). Due windows are locked across tenants
// (SKIP LOCKED), so several instances share them and a start or end is logged once (event keys).
import type { Database } from '../../db/database.ts';
import { writeEngineLog } from '../../db/logQueries.ts';
import { dueMaintenanceWindows, saveMaintenanceProgress, type DueMaintenanceWindow } from '../../db/maintenanceQueries.ts';
import { timeZoneOrUtc } from '../../../src/shared/lighting/localTime.ts';
import { startWorkLoop } from '../../workLoop.ts';
import { maintenanceOccurrence, type MaintenanceSchedule } from '../../time/maintenanceOccurrence.ts';

const BATCH = 100;

export interface MaintenanceEngineOptions {
  onError(error: unknown): void;
  /** After the commit: a window started or ended (its banner changes). */
  onWindowChanged?(tenantId: string, windowId: number): void;
  everyMs?: number;
}

export interface MaintenanceEngine { stop(): Promise<void> }

function transitionLog(window: DueMaintenanceWindow, transition: 'started' | 'ended') {
  const at = transition === 'started' ? window.current_start : window.current_end;
  return {
    tenantId: window.tenant_id, entityId: window.region_id, at, type: 'notice', source: 'system',
    message: `Maintenance window "${window.name}" (${window.mode}) ${transition}`,
    data: { maintenance_window: window.name, action: transition, source_id: window.id, mode: window.mode, scope: window.scope, start: window.current_start, end: window.current_end },
    eventKey: `maintenance:${window.id}:${window.current_start}:${transition}`,
  };
}

export function startMaintenanceEngine(db: Database, options: MaintenanceEngineOptions): MaintenanceEngine {
  const loop = startWorkLoop({
    everyMs: options.everyMs ?? 1_000,
    onError: options.onError,
    work: async () => {
      const changed = await db.systemTx(async (tx) => {
        const due = await dueMaintenanceWindows(tx, BATCH);
        for (const window of due) {
          if (!window.start_logged) await writeEngineLog(tx, transitionLog(window, 'started'));
          if (Date.parse(window.current_end) > Date.now()) {
            await saveMaintenanceProgress(tx, window.id, { start: new Date(window.current_start), end: new Date(window.current_end), startLogged: true });
            continue;
          }
          await writeEngineLog(tx, transitionLog(window, 'ended'));
          const next = maintenanceOccurrence(window.schedule as MaintenanceSchedule, timeZoneOrUtc(window.time_zone), new Date(Math.max(Date.now(), Date.parse(window.current_end))));
          await saveMaintenanceProgress(tx, window.id, { start: next?.start ?? null, end: next?.end ?? null, startLogged: false });
        }
        return due;
      });
      for (const window of changed) options.onWindowChanged?.(window.tenant_id, window.id);
      return changed.length === BATCH;
    },
  });
  return { stop: () => loop.stop() };
}
