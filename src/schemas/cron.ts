// Cron expressions of schedulers (SPEC §5): five fields — minute 0-59, hour 0-23, day of month
// 0-31, month 1-12, weekday 0-6 (Sunday 0) — each `*`, a value, a list, a range or a step.

export const CRON_FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day', min: 0, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'weekday', min: 0, max: 6 },
] as const;

function partValid(part: string, min: number, max: number): boolean {
  const [range, step, ...rest] = part.split('/');
  if (rest.length) return false;
  if (step !== undefined && !(/^\d{1,2}$/.test(step) && Number(step) >= 1 && Number(step) <= max)) return false;
  if (range === '*') return true;
  const bounds = range.split('-');
  if (bounds.length > 2 || !bounds.every((value) => /^\d{1,2}$/.test(value))) return false;
  const [from, to = from] = bounds.map(Number);
  return from >= min && to <= max && from <= to;
}

/** The name of the first invalid field ('minute', …), 'fields' when there are not five, or undefined. */
export function cronProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== CRON_FIELDS.length) return 'fields';
  const index = fields.findIndex((field, i) => !field.split(',').every((part) => partValid(part, CRON_FIELDS[i].min, CRON_FIELDS[i].max)));
  return index < 0 ? undefined : CRON_FIELDS[index].name;
}

/** ajv format `cron`. */
export const cronFormat = (expression: string) => expression.length <= 100 && cronProblem(expression) === undefined;

/** The most days each month has (February's 29th in leap years). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The values a valid field names, in order. */
function fieldValues(field: string, min: number, max: number): number[] {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/');
    const step = Number(stepText ?? 1);
    // `5/10` runs from 5 to the end of the field
    const [from, to] = range === '*' ? [min, max] : range.includes('-') ? range.split('-').map(Number) : [Number(range), stepText === undefined ? Number(range) : max];
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return [...values].sort((a, b) => a - b);
}

export const CRON_NEVER_RUNS = 'This schedule never runs';

/**
 * A valid expression as the cron library reads it, or undefined when it can never fire. SPEC §5
 * lets the day of month be 0–31, but no month has a day 0, a February a 30th or an April a 31st:
 * the days no month of the expression has are left out, and when none is left the schedule never
 * runs — unless it names weekdays too, which run on their own (cron's "either" of the two days).
 */
export function runnableCron(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  const [minute, hour, day, month, weekday] = fields;
  if (day === '*') return fields.join(' ');
  const months = fieldValues(month, 1, 12);
  const days = fieldValues(day, 0, 31).filter((value) => value >= 1 && months.some((m) => value <= MONTH_DAYS[m - 1]));
  if (days.length === 0) return weekday === '*' ? undefined : [minute, hour, '*', month, weekday].join(' ');
  return [minute, hour, days.join(','), month, weekday].join(' ');
}
