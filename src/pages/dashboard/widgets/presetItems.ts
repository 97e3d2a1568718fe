// Which KPI widgets the dashboard shows, in which order and width: the user's preset (kept on
// the server) over the KPI list of the selected groups. A KPI that left the list (deleted, or not
// in the chosen groups) drops out of what is shown; without a preset every listed KPI shows at
// its own width.

export interface PresetItem {
  kpi_id: number;
  /** Columns of 24. */
  width: number;
}

export interface ListedKpi {
  id: number;
  definition?: { width?: number };
}

export const FULL_WIDTH = 24;
/** Widths a widget can take, in columns of 24 (SPEC §9). */
export const WIDGET_WIDTHS = [6, 8, 12, 16, 24] as const;

/** The widgets to show: the preset's items whose KPI is listed, or every listed KPI. */
export function shownItems(kpis: readonly ListedKpi[], preset: readonly PresetItem[] | undefined): PresetItem[] {
  const listed = new Set(kpis.map((kpi) => kpi.id));
  if (preset) return preset.filter((item) => listed.has(item.kpi_id));
  return kpis.map((kpi) => ({ kpi_id: kpi.id, width: kpi.definition?.width ?? FULL_WIDTH }));
}

export const addItem = (items: readonly PresetItem[], kpi: ListedKpi): PresetItem[] =>
  items.some((item) => item.kpi_id === kpi.id) ? [...items] : [...items, { kpi_id: kpi.id, width: kpi.definition?.width ?? FULL_WIDTH }];

export const removeItem = (items: readonly PresetItem[], kpiId: number): PresetItem[] => items.filter((item) => item.kpi_id !== kpiId);

/** The item moved by `step` places (−1 earlier, +1 later), kept within the list. */
export function moveItem(items: readonly PresetItem[], kpiId: number, step: number): PresetItem[] {
  const from = items.findIndex((item) => item.kpi_id === kpiId);
  const to = Math.min(items.length - 1, Math.max(0, from + step));
  if (from < 0 || from === to) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

export const resizeItem = (items: readonly PresetItem[], kpiId: number, width: number): PresetItem[] =>
  items.map((item) => (item.kpi_id === kpiId ? { ...item, width } : item));
