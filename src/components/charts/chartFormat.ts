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
