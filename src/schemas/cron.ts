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
