// A cron expression that can never fire (a 31st of February, a day 0 alone) is refused on save
// with 400 CRON_NEVER_RUNS on its field, as the form says under it before saving.
import { CRON_NEVER_RUNS, runnableCron } from '../../../src/schemas/cron.ts';
import { badRequest } from '../../errors.ts';

export function requireRunnable(expression: unknown, field: string): void {
  if (typeof expression === 'string' && runnableCron(expression) === undefined) throw badRequest('CRON_NEVER_RUNS', CRON_NEVER_RUNS, field);
}
