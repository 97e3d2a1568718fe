// Maintenance window rules: a user starts, changes and ends only windows of the modes its token
// allows; a one-time window ends after it starts and lasts at most MAX_ONCE_DAYS; the current or
// next occurrence is computed on save in the tenant's time zone; every change is logged (audit).
import { timeZoneOrUtc } from '../../../src/shared/lighting/localTime.ts';
import { MAX_ONCE_DAYS } from '../../../src/schemas/maintenanceWindow.ts';
import { tenantTimeZone } from '../../db/directoryQueries.ts';
import { logUserChange } from '../../db/logQueries.ts';
import { maintenanceOccurrence, type MaintenanceSchedule } from '../../time/maintenanceOccurrence.ts';
import { ApiError, badRequest } from '../../errors.ts';
import type { Caller } from '../../auth/caller.ts';
import { requireRunnable } from './cronRules.ts';
import type { ModelRules } from './types.ts';

export const MAINTENANCE_ENDS_BEFORE_START = 'The end must come after the start.';
export const MAINTENANCE_TOO_LONG = `A one-time maintenance window lasts at most ${MAX_ONCE_DAYS} days.`;

function requireMode(caller: Caller, mode: unknown): void {
  if (typeof mode === 'string' && caller.maintenanceModes?.includes(mode)) return;
  throw new ApiError(403, 'MAINTENANCE_MODE_NOT_ALLOWED', `You may not start or end the maintenance mode "${String(mode)}".`, 'mode', { mode: String(mode) });
}

function checkOnce(schedule: MaintenanceSchedule): void {
  if (schedule.kind !== 'once' || !schedule.starts_at || !schedule.ends_at) return;
  const lengthMs = Date.parse(schedule.ends_at) - Date.parse(schedule.starts_at);
  if (!(lengthMs > 0)) throw badRequest('MAINTENANCE_ENDS_BEFORE_START', MAINTENANCE_ENDS_BEFORE_START, 'schedule.ends_at');
  if (lengthMs > MAX_ONCE_DAYS * 86_400_000) throw badRequest('MAINTENANCE_TOO_LONG', MAINTENANCE_TOO_LONG, 'schedule.ends_at');
}

/** The log of a change (`action` scheduled, changed or removed): its words, and the parts the web app says again in its language. */
const audit = (record: Record<string, unknown>, action: 'scheduled' | 'changed' | 'removed') => ({
  message: `Maintenance window "${String(record.name)}" (${String(record.mode)}) ${action}`,
  data: { maintenance_window: record.name, action, mode: record.mode, scope: record.scope, schedule: record.schedule },
});

export const maintenanceWindowRules: ModelRules = {
  notFound: 'Maintenance window not found',
  async beforeWrite({ tx, caller }, record, columns, _id, previous) {
    // as stored and as it will be: a mode allowed on the token does not end a window of another
    if (previous) requireMode(caller, previous.mode);
    requireMode(caller, record.mode);
    const schedule = (record.schedule ?? {}) as MaintenanceSchedule;
    checkOnce(schedule);
    if (schedule.kind === 'recurring') requireRunnable(schedule.expression, 'schedule.expression');
    const occurrence = maintenanceOccurrence(schedule, timeZoneOrUtc(await tenantTimeZone(tx)));
    columns.currentStart = occurrence?.start ?? null;
    columns.currentEnd = occurrence?.end ?? null;
    columns.startLogged = false;
  },
  async afterWrite({ tx, caller }, _id, record, previous) {
    const { message, data } = audit(record, previous ? 'changed' : 'scheduled');
    await logUserChange(tx, caller, (record.region_id as number | undefined) ?? null, message, data);
  },
  async beforeDelete({ caller }, _id, record) {
    requireMode(caller, record.mode);
  },
  async afterDelete({ tx, caller }, _id, record) {
    const { message, data } = audit(record, 'removed');
    await logUserChange(tx, caller, (record.region_id as number | undefined) ?? null, message, data);
  },
};
