// What a plot draws, as plain shapes in drawing order (KpiPlot turns them into SVG), and the legend
// every plot but the gauge has under it: pure, so tests read the shapes a chart will show.
import type { PlotConfig } from './chartConfig.ts';
import type { ChartModel } from './chartModel.ts';
import type { ChartRow } from './kpiTypes.ts';
import { CHART_FONT_SIZE, textWidth } from './textWidth.ts';

export type Mark =
  | { kind: 'rect'; x: number; y: number; width: number; height: number; fill: string; opacity?: number; stroke?: string; dash?: string }
  | { kind: 'path'; d: string; stroke?: string; fill?: string; opacity?: number; width?: number; dash?: string; role?: 'grid' | 'axis' | 'series' | 'area' | 'marker' | 'slice' | 'arc' | 'needle'; series?: string; target?: number }
  | { kind: 'circle'; x: number; y: number; r: number; fill: string }
  | { kind: 'text'; x: number; y: number; text: string; anchor?: 'start' | 'middle' | 'end'; baseline?: 'middle' | 'hanging'; fill?: string; size?: number; weight?: number; role?: 'tick' | 'legend' | 'label' | 'marker' | 'reading' };

/** The rows under the pointer at one position of the category axis (or one pie slice). */
export interface HoverTarget {
  /** Where on the hover axis it is (px). */
  at: number;
  rows: ChartRow[];
}

/** A series' item of the legend: where it is drawn, so it can be pressed to hide or show the series. */
export interface LegendItem {
  series: string;
  x: number;
  y: number;
  width: number;
  height: number;
  hidden: boolean;
}

export interface PlotLayout {
  width: number;
  height: number;
  marks: Mark[];
  legend?: LegendItem[];
  /** Pointer positions the tooltip follows: along x (or y for horizontal bars) within `area`; pie slices name theirs by `target`. */
  hover?: { axis: 'x' | 'y' | 'slice'; targets: HoverTarget[]; area: { left: number; top: number; right: number; bottom: number } };
}

export const AXIS_COLOUR = '#595959';
export const GRID_COLOUR = '#e8e8e8';
/** A hidden series' name in the legend: greyer than the others, still 4.5:1 on white. */
const HIDDEN_COLOUR = '#767676';
const LEGEND_ROW = 20;
const LEGEND_SWATCH = 12;
/** Rows of legend at most: further series are counted in a "+N" at the end. */
const LEGEND_ROWS = 2;

/** The model a plot draws: its series but those hidden from the legend. */
export function shownModel({ model, hidden }: PlotConfig): ChartModel {
  if (!hidden?.size) return model;
  return { ...model, series: model.series.filter((item) => !hidden.has(item.name)), rows: model.rows.filter((row) => !hidden.has(row.series)) };
}

/**
 * The series' legend at the bottom of the plot, in rows that fit `width`; its height is what the
 * plot gives up. A hidden series keeps its item, its swatch hollow and its name grey.
 */
export function legendMarks({ model, hidden }: PlotConfig, width: number, height: number): { marks: Mark[]; items: LegendItem[]; height: number } {
  if (model.definition.legend === false || !model.series.length) return { marks: [], items: [], height: 0 };
  const marks: Mark[] = [];
  const items: LegendItem[] = [];
  let row = 0;
  let x = 0;
  const top = (line: number) => height - (LEGEND_ROWS - line) * LEGEND_ROW;
  for (const { name: label } of model.series) {
    const textRoom = Math.min(textWidth(label), width / 2);
    const itemWidth = LEGEND_SWATCH + 4 + textRoom + 16;
    if (x > 0 && x + itemWidth > width) {
      row += 1;
      x = 0;
    }
    if (row >= LEGEND_ROWS) break;
    const y = top(row) + LEGEND_ROW / 2;
    const colour = model.colours.get(label) ?? '#000000';
    const off = hidden?.has(label) ?? false;
    marks.push(off
      ? { kind: 'rect', x: x + 0.5, y: y - LEGEND_SWATCH / 2 + 0.5, width: LEGEND_SWATCH - 1, height: LEGEND_SWATCH - 1, fill: '#ffffff', stroke: colour }
      : { kind: 'rect', x, y: y - LEGEND_SWATCH / 2, width: LEGEND_SWATCH, height: LEGEND_SWATCH, fill: colour });
    marks.push({ kind: 'text', x: x + LEGEND_SWATCH + 4, y, text: label, baseline: 'middle', fill: off ? HIDDEN_COLOUR : AXIS_COLOUR, role: 'legend' });
    items.push({ series: label, x, y: y - LEGEND_ROW / 2, width: LEGEND_SWATCH + 4 + textRoom + 4, height: LEGEND_ROW, hidden: off });
    x += itemWidth;
  }
  const unlisted = model.series.length - items.length;
  if (unlisted > 0) marks.push({ kind: 'text', x: width, y: top(LEGEND_ROWS - 1) + LEGEND_ROW / 2, text: `+${unlisted}`, anchor: 'end', baseline: 'middle', fill: AXIS_COLOUR, role: 'legend' });
  const rows = Math.min(row + 1, LEGEND_ROWS);
  // the rows sit at the bottom: move them up when fewer than LEGEND_ROWS are used
  const shift = (LEGEND_ROWS - rows) * LEGEND_ROW;
  for (const mark of marks) if ('y' in mark) mark.y += shift;
  for (const item of items) item.y += shift;
  return { marks, items, height: rows * LEGEND_ROW + 4 };
}

/** Of labels at their positions along one axis, those that do not overlap the one kept before (and fit the axis). */
export function labelsThatFit<T extends { at: number; text: string }>(labels: readonly T[], from: number, to: number, gap = 8, along: (text: string) => number = (text) => textWidth(text, CHART_FONT_SIZE)): T[] {
  const kept: T[] = [];
  let end = -Infinity;
  for (const label of labels) {
    const half = along(label.text) / 2;
    if (label.at < from || label.at > to || label.at - half < end + gap) continue;
    kept.push(label);
    end = label.at + half;
  }
  return kept;
}

export const round = (value: number) => Math.round(value * 10) / 10;
