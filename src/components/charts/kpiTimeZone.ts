// The time zone a KPI's chart reads and shows its times in (SPEC §9): UTC unless the KPI has
// timezone shift, then the browser's own zone.
export function kpiTimeZone(definition: { timezone_shift?: boolean } | undefined): string {
  if (!definition?.timezone_shift) return 'UTC';
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
