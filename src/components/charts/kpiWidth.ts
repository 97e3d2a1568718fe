// A KPI card's width (SPEC §9: 24 columns are the full width, 12 half): its parent sets it as
// `calc(100% * width / 24)`, or as this percentage.
export const KPI_COLUMNS = 24;

/** The share of its parent's width a KPI of `width` columns takes, in percent (1..24 columns; 24 when unset). */
export function kpiWidthPercent(width: number | undefined): number {
  const columns = Number.isFinite(width) ? Math.min(KPI_COLUMNS, Math.max(1, Math.round(width!))) : KPI_COLUMNS;
  return (columns * 100) / KPI_COLUMNS;
}
