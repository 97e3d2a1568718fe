// The round charts laid out as shapes: a pie (a donut with its hole) of each series' last value,
// the comparison a lighter slice of its own, and the gauge's arc from 0 to definition.max with the
// reading in its centre.
import { COMPARE_OPACITY, gaugeReading, type PlotConfig } from './chartConfig.ts';
import type { ChartRow } from './kpiTypes.ts';
import { AXIS_COLOUR, legendMarks, round, shownModel, type Mark, type PlotLayout } from './plotLayout.ts';
import { CHART_FONT_SIZE } from './textWidth.ts';

const FULL = 2 * Math.PI;
/** Room for the value labels outside the pie (px). */
const LABEL_ROOM = 48;
const LABEL_GAP = 12;
const READING_SIZE = 24;
const READING_COLOUR = '#262626';
const EMPTY_ARC = '#f0f0f0';

/**
 * An annular sector around (cx, cy) from angle a0 to a1 (radians, clockwise from 12 o'clock),
 * between radii inner (0: a pie's slice) and outer; a whole turn is drawn as two halves.
 */
export function arcPath(cx: number, cy: number, outer: number, inner: number, a0: number, a1: number): string {
  const at = (radius: number, angle: number) => `${round(cx + radius * Math.sin(angle))} ${round(cy - radius * Math.cos(angle))}`;
  if (a1 - a0 >= FULL - 1e-6) {
    const ring = (radius: number, sweep: 0 | 1) => `M${at(radius, 0)}A${radius} ${radius} 0 1 ${sweep} ${at(radius, Math.PI)}A${radius} ${radius} 0 1 ${sweep} ${at(radius, 0)}Z`;
    return inner > 0 ? ring(outer, 1) + ring(inner, 0) : ring(outer, 1);
  }
  const large = a1 - a0 > Math.PI ? 1 : 0;
  const outside = `${at(outer, a0)}A${outer} ${outer} 0 ${large} 1 ${at(outer, a1)}`;
  if (inner <= 0) return `M${round(cx)} ${round(cy)}L${outside}Z`;
  return `M${outside}L${at(inner, a1)}A${inner} ${inner} 0 ${large} 0 ${at(inner, a0)}Z`;
}

/** A pie or donut: one slice per series, its last value (negative values take no room). */
export function pieLayout(config: PlotConfig, width: number, height: number): PlotLayout {
  const model = shownModel(config);
  const legend = legendMarks(config, width, height);
  const slices = model.series.flatMap((item): ChartRow[] => {
    const last = item.data.at(-1);
    const row = last && model.rows.find((candidate) => candidate.series === item.name && candidate.ts === last.ts);
    return row ? [row] : [];
  });
  const areaHeight = height - legend.height;
  const cx = width / 2;
  const cy = areaHeight / 2;
  const outer = Math.max(8, Math.min(width / 2 - LABEL_ROOM, areaHeight / 2 - LABEL_GAP - 6));
  const inner = outer * config.hole;
  const total = slices.reduce((sum, row) => sum + Math.max(0, row.value), 0);
  const marks: Mark[] = [];
  if (!(total > 0)) marks.push({ kind: 'path', d: arcPath(cx, cy, outer, inner, 0, FULL), fill: EMPTY_ARC, role: 'arc' });
  const labels: Mark[] = [];
  const lastLabelY = { start: -Infinity, end: Infinity, middle: -Infinity };
  let angle = 0;
  slices.forEach((row, index) => {
    const share = total > 0 ? Math.max(0, row.value) / total : 0;
    const end = angle + share * FULL;
    if (share > 0) {
      marks.push({ kind: 'path', d: arcPath(cx, cy, outer, inner, angle, end), fill: model.pointColour(row), stroke: '#ffffff', width: 1, ...(row.compare ? { opacity: COMPARE_OPACITY } : {}), role: 'slice', series: row.series, target: index });
      const middle = (angle + end) / 2;
      const x = cx + (outer + LABEL_GAP) * Math.sin(middle);
      const y = cy - (outer + LABEL_GAP) * Math.cos(middle);
      const anchor = Math.sin(middle) > 0.1 ? 'start' : Math.sin(middle) < -0.1 ? 'end' : 'middle';
      // going round clockwise, labels on the right go down and those on the left up: skip one too close to the last
      const clear = anchor === 'end' ? y < lastLabelY.end - LABEL_GAP : y > lastLabelY[anchor] + LABEL_GAP;
      if (clear) {
        lastLabelY[anchor] = y;
        labels.push({ kind: 'text', x: round(x), y: round(y), text: model.formatValue(row.value), anchor, baseline: 'middle', fill: AXIS_COLOUR, role: 'label' });
      }
    }
    angle = end;
  });
  marks.push(...labels, ...legend.marks);
  return {
    width, height, marks, legend: legend.items,
    hover: { axis: 'slice', targets: slices.map((row, index) => ({ at: index, rows: [row] })), area: { left: 0, top: 0, right: width, bottom: areaHeight } },
  };
}

/** The gauge: a half ring from 0 (left) to definition.max (right) in the mapping's colours, a needle at the value, the value below. */
export function gaugeLayout(config: PlotConfig, width: number, height: number): PlotLayout {
  const { model } = config;
  const reading = gaugeReading(model);
  const max = model.definition.max ?? 0;
  const below = READING_SIZE + 2 * CHART_FONT_SIZE;
  const outer = Math.max(8, Math.min(width / 2 - 16, height - below - 16));
  const thickness = Math.max(8, outer * 0.18);
  const cx = width / 2;
  const cy = (height - outer - below) / 2 + outer;
  const angleOf = (value: number) => -Math.PI / 2 + (max > 0 ? Math.min(1, Math.max(0, value / max)) : 0) * Math.PI;
  const marks: Mark[] = reading.segments.length
    ? reading.segments.map((segment): Mark => ({ kind: 'path', d: arcPath(cx, cy, outer, outer - thickness, angleOf(segment.from), angleOf(segment.to)), fill: segment.colour, role: 'arc' }))
    : [{ kind: 'path', d: arcPath(cx, cy, outer, outer - thickness, -Math.PI / 2, Math.PI / 2), fill: EMPTY_ARC, role: 'arc' }];
  if (reading.value !== undefined) {
    const angle = angleOf(reading.value);
    const length = outer - thickness - 4;
    marks.push(
      { kind: 'path', d: `M${round(cx)} ${round(cy)}L${round(cx + length * Math.sin(angle))} ${round(cy - length * Math.cos(angle))}`, stroke: READING_COLOUR, width: 3, role: 'needle' },
      { kind: 'circle', x: round(cx), y: round(cy), r: 5, fill: READING_COLOUR },
    );
  }
  marks.push(
    { kind: 'text', x: round(cx - outer + thickness / 2), y: round(cy + 6), text: model.formatValue(0), anchor: 'middle', baseline: 'hanging', fill: AXIS_COLOUR, role: 'tick' },
    { kind: 'text', x: round(cx + outer - thickness / 2), y: round(cy + 6), text: model.formatValue(max), anchor: 'middle', baseline: 'hanging', fill: AXIS_COLOUR, role: 'tick' },
    { kind: 'text', x: round(cx), y: round(cy + CHART_FONT_SIZE + 4), text: reading.text, anchor: 'middle', baseline: 'hanging', fill: reading.textColour ?? READING_COLOUR, size: READING_SIZE, weight: 600, role: 'reading' },
  );
  return { width, height, marks };
}
