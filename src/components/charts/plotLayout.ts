// What a plot draws, as plain shapes in drawing order (KpiPlot turns them into SVG), and the legend
// every plot but the gauge has under it: pure, so tests read the shapes a chart will show.
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

export interface PlotLayout {
  width: number;
  height: number;
  marks: Mark[];
  /** Pointer positions the tooltip follows: along x (or y for horizontal bars) within `area`; pie slices name theirs by `target`. */
  hover?: { axis: 'x' | 'y' | 'slice'; targets: HoverTarget[]; area: { left: number; top: number; right: number; bottom: number } };
}

export const AXIS_COLOUR = '#595959';
export const GRID_COLOUR = '#e8e8e8';
const LEGEND_ROW = 20;
const LEGEND_SWATCH = 12;
/** Rows of legend at most: further series are counted in a "+N" at the end. */
const LEGEND_ROWS = 2;

/** The series' legend at the bottom of the plot, in rows that fit `width`; its height is what the plot gives up. */
export function legendMarks(model: ChartModel, width: number, height: number): { marks: Mark[]; height: number } {
  if (model.definition.legend === false || !model.series.length) return { marks: [], height: 0 };
  const marks: Mark[] = [];
  let row = 0;
  let x = 0;
  let shown = 0;
  const top = (line: number) => height - (LEGEND_ROWS - line) * LEGEND_ROW;
  for (const { name: label } of model.series) {
    const itemWidth = LEGEND_SWATCH + 4 + Math.min(textWidth(label), width / 2) + 16;
    if (x > 0 && x + itemWidth > width) {
      row += 1;
      x = 0;
    }
    if (row >= LEGEND_ROWS) break;
    const y = top(row) + LEGEND_ROW / 2;
    marks.push({ kind: 'rect', x, y: y - LEGEND_SWATCH / 2, width: LEGEND_SWATCH, height: LEGEND_SWATCH, fill: model.colours.get(label) ?? '#000000' });
    marks.push({ kind: 'text', x: x + LEGEND_SWATCH + 4, y, text: label, baseline: 'middle', fill: AXIS_COLOUR, role: 'legend' });
    x += itemWidth;
    shown += 1;
  }
  const hidden = model.series.length - shown;
  if (hidden > 0) marks.push({ kind: 'text', x: width, y: top(LEGEND_ROWS - 1) + LEGEND_ROW / 2, text: `+${hidden}`, anchor: 'end', baseline: 'middle', fill: AXIS_COLOUR, role: 'legend' });
  const rows = Math.min(row + 1, LEGEND_ROWS);
  // the rows sit at the bottom: move them up when fewer than LEGEND_ROWS are used
  const shift = (LEGEND_ROWS - rows) * LEGEND_ROW;
  for (const mark of marks) if ('y' in mark) mark.y += shift;
  return { marks, height: rows * LEGEND_ROW + 4 };
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
