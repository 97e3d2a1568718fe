// The charts on a time axis and a value axis — columns (side by side or stacked), horizontal bars,
// lines over the buckets or on a true time line — laid out as shapes. Series read on both value
// axes get a scale each; bars on two sides would hide each other, so there the right side's series
// are lines over the left side's bars.
import { hasColourMapping } from './chartColours.ts';
import { COMPARE_DASH, COMPARE_OPACITY, MARKER_COLOUR, MAX_BAND_TICKS, type PlotConfig } from './chartConfig.ts';
import { usesBothAxes, type DrawnSeries } from './chartSeries.ts';
import type { ChartRow, ValueAxis } from './kpiTypes.ts';
import { AXIS_COLOUR, GRID_COLOUR, labelsThatFit, legendMarks, round, shownModel, type HoverTarget, type Mark, type PlotLayout } from './plotLayout.ts';
import { project, timeTicks, valueScale, type ValueScale } from './scales.ts';
import { textWidth } from './textWidth.ts';

const DEFAULT_TICKS = 5;
const TOP = 10;
const AXIS_TEXT = 20;
const LINE_WIDTH = 2;
const AREA_OPACITY = 0.15;
/** The space between a time line's labelled ticks, at least (px). */
const TIME_TICK_SPACING = 90;
/** A category label's height, for labels along a vertical axis (px). */
const LABEL_HEIGHT = 14;

interface Bucket {
  ts: string;
  time: number;
  rows: ChartRow[];
}

/** The answer's buckets in time order, each with its rows (every series' point at that start). */
function bucketsOf(rows: readonly ChartRow[]): Bucket[] {
  const byTs = new Map<string, Bucket>();
  for (const row of rows) {
    let bucket = byTs.get(row.ts);
    if (!bucket) byTs.set(row.ts, (bucket = { ts: row.ts, time: row.time.getTime(), rows: [] }));
    bucket.rows.push(row);
  }
  return [...byTs.values()].sort((a, b) => a.time - b.time);
}

/** Per bucket, the sums a stack of its rows reaches upward and downward. */
function stackExtents(rows: readonly ChartRow[]): number[] {
  const sums = new Map<string, [number, number]>();
  for (const row of rows) {
    const sum = sums.get(row.ts) ?? [0, 0];
    sum[row.value < 0 ? 1 : 0] += row.value;
    sums.set(row.ts, sum);
  }
  return [...sums.values()].flat();
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** An SVG path's moves through points given as [x, y, …]. */
const pathThrough = (points: readonly (readonly [number, number, ...unknown[]])[]) =>
  points.map(([x, y], index) => `${index ? 'L' : 'M'}${round(x)} ${round(y)}`).join('');

export function cartesianLayout(config: PlotConfig, width: number, height: number): PlotLayout {
  const model = shownModel(config);
  const { definition } = model;
  const horizontal = config.plot === 'bars';
  const legend = legendMarks(config, width, height);
  const buckets = bucketsOf(model.rows);
  // on two axes, one side's series all hidden leaves the other side's axis alone
  const bothSides = config.valueAxes === 2 && usesBothAxes(model.series);
  const oneSide = config.valueAxes === 2 ? model.series[0]?.axis : undefined;
  const sides: ValueAxis[] = bothSides ? ['left', 'right'] : [horizontal ? 'left' : oneSide ?? definition.y_axis ?? 'left'];
  const sideOf = (item: { axis: ValueAxis }): ValueAxis => (bothSides ? item.axis : sides[0]);
  // on two axes only the left side's series are bars
  const isBar = (item: { axis: ValueAxis }) => config.plot === 'bars' || (config.plot === 'columns' && (config.valueAxes === 1 || item.axis === 'left'));

  const scales = new Map<ValueAxis, ValueScale>();
  for (const side of sides) {
    const rows = model.rows.filter((row) => sideOf(row) === side);
    const bars = rows.some(isBar);
    const values = bars && config.stacked ? stackExtents(rows.filter(isBar)).concat(rows.filter((row) => !isBar(row)).map((row) => row.value)) : rows.map((row) => row.value);
    scales.set(side, valueScale(values, definition.split_number ?? DEFAULT_TICKS, bars || config.timeLine, model.valueDomain));
  }
  const tickTexts = (side: ValueAxis) => scales.get(side)!.ticks.map((tick) => model.formatValue(tick));
  const widest = (texts: readonly string[]) => Math.max(0, ...texts.map((text) => textWidth(text)));

  // the plot's box: room for the value axes' labels at their sides, the time axis' below
  const bucketLabel = (bucket: Bucket) => model.formatAxisTime(bucket.ts);
  const box = { left: 8, top: TOP, right: width - 12, bottom: height - legend.height - AXIS_TEXT };
  if (horizontal) {
    box.left = Math.min(widest(buckets.map(bucketLabel)), width * 0.35) + 10;
  } else {
    for (const side of sides) {
      const room = widest(tickTexts(side)) + 10;
      if (side === 'left') box.left = room;
      else box.right = width - room;
    }
  }
  box.right = Math.max(box.right, box.left + 1);
  box.bottom = Math.max(box.bottom, box.top + 1);

  // along the category axis: bands of buckets, or instants on a time line
  const [from, to] = horizontal ? [box.top, box.bottom] : [box.left, box.right];
  const band = (to - from) / Math.max(1, buckets.length);
  const firstTime = buckets[0]?.time ?? 0;
  const lastTime = buckets.at(-1)?.time ?? 0;
  const timeAt = project({ min: firstTime, max: lastTime === firstTime ? firstTime + 1 : lastTime, ticks: [] }, from, to);
  const centre = (index: number) => (config.timeLine ? timeAt(buckets[index].time) : from + (index + 0.5) * band);
  const indexOf = new Map(buckets.map((bucket, index) => [bucket.ts, index]));
  const rowsOf = new Map<string, ChartRow[]>();
  for (const row of model.rows) {
    const rows = rowsOf.get(row.series);
    if (rows) rows.push(row);
    else rowsOf.set(row.series, [row]);
  }
  // along the value axis: screen grows down, values up (a horizontal bar grows right)
  const valueAt = new Map([...scales].map(([side, scale]) => [side, horizontal ? project(scale, box.left, box.right) : project(scale, box.bottom, box.top)]));

  const marks: Mark[] = [];
  const mainScale = scales.get(sides[0])!;
  const mainValueAt = valueAt.get(sides[0])!;
  for (const tick of mainScale.ticks) {
    const at = round(mainValueAt(tick));
    marks.push({ kind: 'path', d: horizontal ? `M${at} ${box.top}V${box.bottom}` : `M${box.left} ${at}H${box.right}`, stroke: GRID_COLOUR, width: 1, role: 'grid' });
  }

  const lineSeries = model.series.filter((item) => !isBar(item));
  if (config.timeLine) for (const item of lineSeries) marks.push(...areaOf(item));
  marks.push(...barsOf(model.series.filter(isBar)));
  for (const item of lineSeries) marks.push(...lineOf(item));
  if (config.timeLine) marks.push(...markerMarks());
  marks.push(...axisMarks(), ...legend.marks);

  const targets: HoverTarget[] = buckets.map((bucket, index) => ({ at: centre(index), rows: bucket.rows }));
  return { width, height, marks, legend: legend.items, hover: { axis: horizontal ? 'y' : 'x', targets, area: box } };

  function pointsOf(item: DrawnSeries): [number, number, ChartRow][] {
    const side = sideOf(item);
    const at = valueAt.get(side)!;
    return (rowsOf.get(item.name) ?? [])
      .map((row): [number, number, ChartRow] => [centre(indexOf.get(row.ts)!), at(row.value), row])
      .sort((a, b) => a[0] - b[0]);
  }

  function lineOf(item: DrawnSeries): Mark[] {
    const points = pointsOf(item);
    if (!points.length) return [];
    const colour = model.colours.get(item.name) ?? '#000000';
    const d = pathThrough(points);
    const marks: Mark[] = [{ kind: 'path', d, stroke: colour, width: LINE_WIDTH, ...(item.compare ? { dash: COMPARE_DASH } : {}), role: 'series', series: item.name }];
    if (hasColourMapping(definition)) for (const [c, v, row] of points) marks.push({ kind: 'circle', x: round(c), y: round(v), r: 3, fill: model.pointColour(row) });
    return marks;
  }

  function areaOf(item: DrawnSeries): Mark[] {
    const points = pointsOf(item);
    if (points.length < 2) return [];
    const scale = scales.get(sideOf(item))!;
    const base = round(valueAt.get(sideOf(item))!(clamp(0, scale.min, scale.max)));
    const d = `${pathThrough(points)}V${base}H${round(points[0][0])}Z`;
    return [{ kind: 'path', d, fill: model.colours.get(item.name) ?? '#000000', opacity: AREA_OPACITY, role: 'area', series: item.name }];
  }

  function barsOf(series: readonly DrawnSeries[]): Mark[] {
    if (!series.length) return [];
    const inner = band * 0.8;
    const slots = config.stacked ? 1 : series.length;
    const slot = inner / slots;
    const thickness = Math.max(slot > 4 ? slot - 1 : slot, 0.3);
    const stackTops = new Map<string, [number, number]>();
    const marks: Mark[] = [];
    series.forEach((item, slotIndex) => {
      const at = valueAt.get(sideOf(item))!;
      const scale = scales.get(sideOf(item))!;
      const zero = clamp(0, scale.min, scale.max);
      for (const row of rowsOf.get(item.name) ?? []) {
        let start = zero;
        if (config.stacked) {
          const tops = stackTops.get(row.ts) ?? [0, 0];
          const sign = row.value < 0 ? 1 : 0;
          start = tops[sign];
          tops[sign] += row.value;
          stackTops.set(row.ts, tops);
        }
        const end = start + (config.stacked ? row.value : row.value - zero);
        const c = centre(indexOf.get(row.ts)!) - inner / 2 + (config.stacked ? 0 : slotIndex * slot);
        const v0 = at(clamp(start, scale.min, scale.max));
        const v1 = at(clamp(end, scale.min, scale.max));
        const [low, length] = [round(Math.min(v0, v1)), round(Math.abs(v1 - v0))];
        const style = row.compare ? { opacity: COMPARE_OPACITY, stroke: model.colours.get(row.series), dash: COMPARE_DASH } : {};
        marks.push(horizontal
          ? { kind: 'rect', x: low, y: round(c), width: length, height: round(thickness), fill: model.pointColour(row), ...style }
          : { kind: 'rect', x: round(c), y: low, width: round(thickness), height: length, fill: model.pointColour(row), ...style });
      }
    });
    return marks;
  }

  function markerMarks(): Mark[] {
    return model.markers.flatMap((marker): Mark[] => {
      const time = marker.at.getTime();
      if (time < firstTime || time > lastTime) return [];
      const x = round(timeAt(time));
      return [
        { kind: 'path', d: `M${x} ${box.top}V${box.bottom}`, stroke: MARKER_COLOUR, width: 1, dash: '4 4', role: 'marker' },
        { kind: 'text', x: x + 4, y: box.top + 2, text: marker.label, baseline: 'hanging', fill: MARKER_COLOUR, role: 'marker' },
      ];
    });
  }

  function axisMarks(): Mark[] {
    const marks: Mark[] = [];
    // the category axis: every k-th bucket (a band), or whole steps of the zone's clock (a time line)
    const categoryTicks = config.timeLine
      ? timeTicks(firstTime, lastTime, Math.max(2, Math.floor((to - from) / TIME_TICK_SPACING)), model.timeZone).map((time) => ({ at: timeAt(time), text: model.formatAxisTime(time) }))
      : buckets.flatMap((bucket, index) => (index % Math.ceil(buckets.length / MAX_BAND_TICKS) === 0 ? [{ at: centre(index), text: bucketLabel(bucket) }] : []));
    if (horizontal) {
      marks.push({ kind: 'path', d: `M${box.left} ${box.top}V${box.bottom}`, stroke: AXIS_COLOUR, width: 1, role: 'axis' });
      for (const tick of labelsThatFit(categoryTicks, from, to, 2, () => LABEL_HEIGHT)) marks.push({ kind: 'text', x: box.left - 6, y: round(tick.at), text: tick.text, anchor: 'end', baseline: 'middle', fill: AXIS_COLOUR, role: 'tick' });
      const valueTicks = mainScale.ticks.map((tick, index) => ({ at: mainValueAt(tick), text: tickTexts(sides[0])[index] }));
      for (const tick of labelsThatFit(valueTicks, box.left, box.right)) marks.push({ kind: 'text', x: round(tick.at), y: box.bottom + 4, text: tick.text, anchor: 'middle', baseline: 'hanging', fill: AXIS_COLOUR, role: 'tick' });
      return marks;
    }
    marks.push({ kind: 'path', d: `M${box.left} ${box.bottom}H${box.right}`, stroke: AXIS_COLOUR, width: 1, role: 'axis' });
    for (const tick of labelsThatFit(categoryTicks, from, to)) marks.push({ kind: 'text', x: round(tick.at), y: box.bottom + 4, text: tick.text, anchor: 'middle', baseline: 'hanging', fill: AXIS_COLOUR, role: 'tick' });
    for (const side of sides) {
      const at = valueAt.get(side)!;
      const texts = tickTexts(side);
      scales.get(side)!.ticks.forEach((tick, index) => marks.push(side === 'left'
        ? { kind: 'text', x: box.left - 6, y: round(at(tick)), text: texts[index], anchor: 'end', baseline: 'middle', fill: AXIS_COLOUR, role: 'tick' }
        : { kind: 'text', x: box.right + 6, y: round(at(tick)), text: texts[index], anchor: 'start', baseline: 'middle', fill: AXIS_COLOUR, role: 'tick' }));
    }
    return marks;
  }
}
