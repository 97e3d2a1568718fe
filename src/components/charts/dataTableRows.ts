// The "data table" chart's rows: one per point, newest first — time in the KPI's zone, series
// label, entity, value with the KPI's decimals and the value's colour from the mapping.
import { valueColour } from './chartColours.ts';
import type { ChartModel } from './chartModel.ts';

export interface DataTableRow {
  key: string;
  time: string;
  series: string;
  entity: string;
  value: string;
  /** colourOf the value; undefined when the KPI maps no colours. */
  colour: string | undefined;
}

export function dataTableRows(model: ChartModel): DataTableRow[] {
  const order = new Map(model.series.map((item, index) => [item.name, index]));
  return [...model.rows]
    .sort((a, b) => b.time.getTime() - a.time.getTime() || order.get(a.series)! - order.get(b.series)!)
    .map((row) => ({
      key: `${row.series}\u0000${row.ts}`,
      time: model.formatTime(row.time),
      series: row.label,
      entity: row.entity,
      value: model.formatValue(row.value),
      colour: valueColour(row.value, model.definition, row.key),
    }));
}
