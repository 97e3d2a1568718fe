// Scheduler rules: next_run_at is computed on save, from the cron expression in the tenant's time
// zone (tenant attribute `timezone`, UTC by default) or the single run's time.
import { timeZoneOrUtc } from '../../../src/shared/lighting/localTime.ts';
import { CronExpressionParser } from 'cron-parser';
import { runnableCron } from '../../../src/schemas/cron.ts';
import { tenantTimeZone } from '../../db/directoryQueries.ts';
import { requireRunnable } from './cronRules.ts';
import type { ModelRules } from './types.ts';

interface SchedulerDefinition { kind?: string; expression?: string; run_at?: string }

/** The next run after `now`, or null (inactive, or a single run in the past). */
export function nextRunAt(status: unknown, definition: SchedulerDefinition, timeZone: string, now = new Date()): Date | null {
  if (status !== 'active') return null;
  if (definition.kind === 'single') {
    const at = definition.run_at ? new Date(definition.run_at) : null;
    return at && at > now ? at : null;
  }
  const expression = definition.expression && runnableCron(definition.expression);
  if (!expression) return null;
  return CronExpressionParser.parse(expression, { currentDate: now, tz: timeZone }).next().toDate();
}

export const schedulerRules: ModelRules = {
  async beforeWrite({ tx }, record, columns) {
    const definition = (record.definition ?? {}) as SchedulerDefinition;
    if (definition.kind === 'periodic') requireRunnable(definition.expression, 'definition.expression');
    columns.nextRunAt = nextRunAt(record.status, definition, timeZoneOrUtc(await tenantTimeZone(tx)));
  },
};
