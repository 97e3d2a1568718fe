// How a chart writes its numbers and times: the KPI's decimals in the interface language, times
// in the KPI's zone (kpiTimeZone).

/** Formats values with exactly `decimals` fraction digits (definition.decimals, default 1). */
export function valueFormatter(language: string, decimals: number | undefined): (value: number) => string {
  const digits = decimals ?? 1;
  const format = new Intl.NumberFormat(language, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return (value) => (Number.isFinite(value) ? format.format(value) : '');
}

/** Formats an instant (Date or ISO text) as a short date and time in `timeZone`. */
export function timeFormatter(language: string, timeZone: string): (time: Date | string | number) => string {
  const format = new Intl.DateTimeFormat(language, { timeZone, dateStyle: 'short', timeStyle: 'short' });
  return (time) => {
    const date = time instanceof Date ? time : new Date(time);
    return Number.isNaN(date.getTime()) ? '' : format.format(date);
  };
}

const DAY_MS = 86_400_000;

/**
 * Formats an axis tick as briefly as the answer's buckets allow: months as month and year, days
 * and weeks as day and month, hours and minutes as the time of day (with the day when the range
 * spans more than a day and a half).
 */
export function axisTimeFormatter(language: string, timeZone: string, answer: { interval?: string; from?: string; to?: string } | undefined): (time: Date | string | number) => string {
  const span = answer?.from && answer.to ? Date.parse(answer.to) - Date.parse(answer.from) : 0;
  const interval = answer?.interval ?? '';
  let options: Intl.DateTimeFormatOptions;
  if (interval === '1M') options = { year: 'numeric', month: 'short' };
  else if (interval === '1d' || interval === '1w') options = { month: 'short', day: 'numeric' };
  else if (span > 1.5 * DAY_MS) options = { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };
  else options = { hour: '2-digit', minute: '2-digit' };
  const format = new Intl.DateTimeFormat(language, { timeZone, ...options });
  return (time) => {
    const date = time instanceof Date ? time : new Date(time);
    return Number.isNaN(date.getTime()) ? '' : format.format(date);
  };
}
