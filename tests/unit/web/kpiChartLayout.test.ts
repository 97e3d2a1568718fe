// The KPI charts as they are laid out (SPEC §3, §5, §9): the shapes each chart type draws — bars
// side by side or stacked, horizontal bars, lines, areas, slices, the gauge's arc — the value axis'
// side and ticks, the legend, decimals, colours from colourOf, the comparison drawn apart, two value
// axes, the data table and the time-zone helpers. The layouts are pure: no browser needed.
import { axisTimeFormatter } from '../../../src/components/charts/chartFormat.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { colourOf } from '../../../src/schemas/colourMapping.ts';
import { gaugeColourAt, gaugeSegments, colourLegend, lighterColour, SERIES_PALETTE } from '../../../src/components/charts/chartColours.ts';
import { COMPARE_DASH, COMPARE_OPACITY, DONUT_HOLE, gaugeReading, MARKER_COLOUR, MAX_BAND_TICKS, plotConfigOf } from '../../../src/components/charts/chartConfig.ts';
import { chartModel } from '../../../src/components/charts/chartModel.ts';
import { isEmptyAnswer } from '../../../src/components/charts/chartSeries.ts';
import { dataTableRows } from '../../../src/components/charts/dataTableRows.ts';
import { plotLayout } from '../../../src/components/charts/KpiPlot.tsx';
import { kpiTimeZone } from '../../../src/components/charts/kpiTimeZone.ts';
import { kpiWidthPercent } from '../../../src/components/charts/kpiWidth.ts';
import type { KpiDefinition, KpiQueryItem } from '../../../src/components/charts/kpiTypes.ts';
import type { Mark, PlotLayout } from '../../../src/components/charts/plotLayout.ts';
import type { KpiDataAnswer } from '../../../src/schemas/kpiDataQuery.ts';
import { answer, HOUR_MS, series, START } from '../../support/kpiAnswers.ts';

const context = { language: 'en', comparedSuffix: '(compared)', entityNames: { 7: 'Lamp 7' } };
const withCompare = answer(series([1, 2, 3]), { ...series([4, 5, 6]), compare: true });
const mapping: KpiDefinition['colour_mapping'] = [
  { from: 0, to: 10, color: '#00aa00', property: 'power', measure: 'W', label: 'Low' },
  { from: 10, to: 50, color: '#ffaa00', property: 'power', measure: 'W', label: 'Mid' },
  { from: 50, to: 100, color: '#cc0000', property: 'power', measure: 'W', label: 'High' },
];
const WIDTH = 600;

function drawn(definition: KpiDefinition, data: KpiDataAnswer = withCompare, query: readonly KpiQueryItem[] = [], extra: Partial<Parameters<typeof chartModel>[2]> = {}) {
  const model = chartModel(definition, data, { ...context, ...extra }, query);
  const config = plotConfigOf(definition.chart, model)!;
  return { model, config, layout: plotLayout(config, WIDTH, definition.height ?? 300) };
}
type Kind = Mark['kind'];
const marksOf = <K extends Kind>(layout: PlotLayout, kind: K, role?: string) =>
  layout.marks.filter((mark): mark is Extract<Mark, { kind: K }> => mark.kind === kind && (role === undefined || (mark as { role?: string }).role === role));
const texts = (layout: PlotLayout, role: string) => marksOf(layout, 'text', role).map((mark) => mark.text);
/** The value ticks' labels on one side of a vertical chart. */
const sideTicks = (layout: PlotLayout, anchor: 'end' | 'start') => marksOf(layout, 'text', 'tick').filter((mark) => mark.anchor === anchor).map((mark) => mark.text);

afterEach(() => vi.restoreAllMocks());

describe('KPI chart types', () => {
  it('bar: vertical columns side by side, one colour per series, the comparison lighter and dashed', () => {
    const { config, layout } = drawn({ chart: 'bar' });
    expect(config).toMatchObject({ plot: 'columns', stacked: false, valueAxes: 1, seriesCount: 2 });
    const bars = marksOf(layout, 'rect').filter((rect) => rect.width < 100); // not the legend's swatches
    const columns = bars.filter((bar) => bar.height > 0 && bar.width !== 12);
    expect(columns).toHaveLength(6);
    const [main, compared] = [columns.slice(0, 3), columns.slice(3)];
    expect(main.every((bar) => bar.fill === SERIES_PALETTE[0] && bar.opacity === undefined)).toBe(true);
    expect(compared.every((bar) => bar.fill === lighterColour(SERIES_PALETTE[0]) && bar.opacity === COMPARE_OPACITY && bar.dash === COMPARE_DASH)).toBe(true);
    // side by side in each bucket, taller for larger values, all on the zero line
    for (let index = 0; index < 3; index++) expect(compared[index].x).toBeGreaterThan(main[index].x);
    expect(main[0].height).toBeLessThan(main[1].height);
    expect(new Set(columns.map((bar) => Math.round(bar.y + bar.height))).size).toBe(1);
  });

  it('stacked-bar: each bucket one column, the series on top of each other', () => {
    const { config, layout } = drawn({ chart: 'stacked-bar' });
    expect(config).toMatchObject({ plot: 'columns', stacked: true });
    const columns = marksOf(layout, 'rect').filter((bar) => bar.width !== 12);
    expect(columns).toHaveLength(6);
    for (let index = 0; index < 3; index++) {
      const [main, compared] = [columns[index], columns[index + 3]];
      expect(compared.x).toBe(main.x);
      expect(compared.y + compared.height).toBeCloseTo(main.y, 0);
    }
    // the axis reaches the highest stack, 3 + 6
    expect(Number(sideTicks(layout, 'end').at(-1))).toBeGreaterThanOrEqual(9);
  });

  it('horizontal-bar: bars growing right, the buckets down the left', () => {
    const { config, layout } = drawn({ chart: 'horizontal-bar' });
    expect(config.plot).toBe('bars');
    const bars = marksOf(layout, 'rect').filter((bar) => bar.height !== 12);
    expect(bars).toHaveLength(6);
    expect(bars[0].width).toBeLessThan(bars[2].width);
    expect(new Set(bars.map((bar) => bar.x)).size).toBe(1);
    expect(bars[1].y).toBeGreaterThan(bars[0].y);
    expect(marksOf(layout, 'text', 'tick').filter((mark) => mark.anchor === 'end').map((mark) => mark.text)).toEqual(['12:00 AM', '01:00 AM', '02:00 AM']);
  });

  it('line: a line per series over the buckets, the comparison dashed; time-scale: on a time line with an area under each', () => {
    const { config: line, layout: lines } = drawn({ chart: 'line' });
    expect(line).toMatchObject({ plot: 'lines', timeLine: false });
    const paths = marksOf(lines, 'path', 'series');
    expect(paths.map((path) => [path.series, path.stroke, path.dash])).toEqual([
      ['Power', SERIES_PALETTE[0], undefined], ['Power (compared)', lighterColour(SERIES_PALETTE[0]), COMPARE_DASH],
    ]);
    expect(marksOf(lines, 'path', 'area')).toHaveLength(0);
    const { config: timeScale, layout: timeLine } = drawn({ chart: 'time-scale' });
    expect(timeScale).toMatchObject({ plot: 'lines', timeLine: true });
    expect(marksOf(timeLine, 'path', 'area').map((area) => area.series)).toEqual(['Power', 'Power (compared)']);
  });

  it('pie: one slice per series (its last value) with its value outside; donut: with a hole', () => {
    const { config: pie, layout } = drawn({ chart: 'pie' });
    expect(pie).toMatchObject({ plot: 'pie', hole: 0 });
    const slices = marksOf(layout, 'path', 'slice');
    expect(slices.map((slice) => [slice.series, slice.fill, slice.opacity])).toEqual([['Power', SERIES_PALETTE[0], undefined], ['Power (compared)', lighterColour(SERIES_PALETTE[0]), COMPARE_OPACITY]]);
    expect(texts(layout, 'label')).toEqual(['3.0', '6.0']);
    expect(layout.hover!.targets.map((target) => target.rows.map((row) => row.value))).toEqual([[3], [6]]);
    const { config: donut, layout: ring } = drawn({ chart: 'donut' });
    expect(donut.hole).toBe(DONUT_HOLE);
    // a slice of a ring has two arcs (outer and inner), a pie's one
    expect(marksOf(ring, 'path', 'slice')[0].d.match(/A/g)).toHaveLength(2);
    expect(slices[0].d.match(/A/g)).toHaveLength(1);
  });

  it('data-table: no plot (the table draws it)', () => {
    expect(plotConfigOf('data-table', chartModel({ chart: 'data-table' }, withCompare, context))).toBeUndefined();
  });
});

describe('KPI chart options', () => {
  it('puts the value axis left by default and right with y_axis right, with split_number ticks', () => {
    const left = drawn({ chart: 'line' }).layout;
    expect(sideTicks(left, 'end').length).toBeGreaterThan(2);
    expect(sideTicks(left, 'start')).toEqual([]);
    const right = drawn({ chart: 'bar', y_axis: 'right', split_number: 7 }, answer(series([0, 70]))).layout;
    expect(sideTicks(right, 'end')).toEqual([]);
    expect(sideTicks(right, 'start')).toEqual(['0.0', '10.0', '20.0', '30.0', '40.0', '50.0', '60.0', '70.0']);
  });

  describe('two value axes: query items on both sides', () => {
    // power (item 0) on the left, temperature (item 1) on the right, each with its comparison
    const twoItems = answer(
      series([100, 200, 300]), { ...series([110, 210, 310]), compare: true },
      series([20, 21, 22], { item: 1, label: 'Temperature', key: 'temperature' }), { ...series([19, 20, 21], { item: 1, label: 'Temperature', key: 'temperature' }), compare: true },
    );
    const query = [{ key: 'power', aggregation: 'avg' as const }, { key: 'temperature', aggregation: 'avg' as const, y_axis: 'right' as const }];
    const dual = (definition: KpiDefinition, items: readonly KpiQueryItem[] = query) => drawn(definition, twoItems, items);

    it('line and time-scale: a line per series, each side its own scale and ticks', () => {
      for (const chart of ['line', 'time-scale'] as const) {
        const { config, layout } = dual({ chart, split_number: 5 });
        expect(config).toMatchObject({ valueAxes: 2, seriesCount: 4 });
        expect(marksOf(layout, 'path', 'series').map((path) => path.series)).toEqual(['Power', 'Power (compared)', 'Temperature', 'Temperature (compared)']);
        // power's hundreds on the left, temperature's tens on the right
        expect(Number(sideTicks(layout, 'end').at(-1)!.replace(',', ''))).toBeGreaterThanOrEqual(310);
        expect(Number(sideTicks(layout, 'start').at(-1))).toBeLessThan(100);
        // one legend entry per series
        expect(texts(layout, 'legend')).toEqual(['Power', 'Power (compared)', 'Temperature', 'Temperature (compared)']);
      }
    });

    it('bar and stacked-bar: the left side\'s bars, the right side\'s series as lines over them', () => {
      for (const chart of ['bar', 'stacked-bar'] as const) {
        const { layout } = dual({ chart });
        expect(marksOf(layout, 'rect').filter((bar) => bar.width !== 12)).toHaveLength(6);
        expect(marksOf(layout, 'path', 'series').map((path) => path.series)).toEqual(['Temperature', 'Temperature (compared)']);
      }
    });

    it('with one side\'s series hidden from the legend, the other side\'s axis is the only one', () => {
      const { config } = dual({ chart: 'line' });
      const rightOnly = plotLayout({ ...config, hidden: new Set(['Power', 'Power (compared)']) }, WIDTH, 300);
      expect(sideTicks(rightOnly, 'end')).toEqual([]);
      expect(Number(sideTicks(rightOnly, 'start').at(-1))).toBeLessThan(100);
      const leftOnly = plotLayout({ ...config, hidden: new Set(['Temperature', 'Temperature (compared)']) }, WIDTH, 300);
      expect(sideTicks(leftOnly, 'start')).toEqual([]);
      expect(Number(sideTicks(leftOnly, 'end').at(-1)!.replace(',', ''))).toBeGreaterThanOrEqual(310);
    });

    it('the chart\'s y_axis places the items without one: all on one side is one axis', () => {
      const bothRight = dual({ chart: 'line', y_axis: 'right' });
      expect(bothRight.config.valueAxes).toBe(1);
      expect(sideTicks(bothRight.layout, 'end')).toEqual([]);
      const flipped = dual({ chart: 'line', y_axis: 'right' }, [{ ...query[0], y_axis: 'left' }, { ...query[1], y_axis: undefined }]);
      expect(flipped.config.valueAxes).toBe(2);
    });

    it('pie, donut, gauge, horizontal bar and table keep their one plot', () => {
      expect(dual({ chart: 'pie' }).config.valueAxes).toBe(1);
      expect(dual({ chart: 'horizontal-bar' }).config.valueAxes).toBe(1);
      expect(dual({ chart: 'gauge', max: 100 }).config).toMatchObject({ plot: 'gauge', valueAxes: 1, seriesCount: 1 });
      expect(plotConfigOf('data-table', chartModel({ chart: 'data-table' }, twoItems, context, query))).toBeUndefined();
    });
  });

  it('a band time axis of many buckets labels at most MAX_BAND_TICKS of them; a time line labels whole steps', () => {
    const year = answer(series(Array.from({ length: 365 }, (_, index) => index)));
    for (const chart of ['line', 'bar', 'stacked-bar', 'horizontal-bar'] as const) {
      const { layout } = drawn({ chart, height: 600 }, year);
      const labels = marksOf(layout, 'text', 'tick').filter((mark) => (chart === 'horizontal-bar' ? mark.anchor === 'end' : mark.anchor === 'middle'));
      expect(labels.length, chart).toBeLessThanOrEqual(MAX_BAND_TICKS);
      expect(labels.length, chart).toBeGreaterThanOrEqual(4);
    }
    const hours = drawn({ chart: 'time-scale' }, answer(series(Array.from({ length: 24 }, (_, index) => index)))).layout;
    const labels = marksOf(hours, 'text', 'tick').filter((mark) => mark.anchor === 'middle').map((mark) => mark.text);
    expect(labels.length).toBeGreaterThan(2);
    expect(labels.every((label) => /^\d\d:00 [AP]M$/.test(label)), labels.join()).toBe(true);
  });

  it('turns the legend off, and sets the height', () => {
    expect(texts(drawn({ chart: 'line', legend: false }).layout, 'legend')).toEqual([]);
    expect(texts(drawn({ chart: 'line' }).layout, 'legend')).toEqual(['Power', 'Power (compared)']);
    expect(drawn({ chart: 'line', height: 420 }).layout.height).toBe(420);
    const bottom = (layout: PlotLayout) => Math.max(...marksOf(layout, 'text', 'tick').map((mark) => mark.y));
    expect(bottom(drawn({ chart: 'line', height: 420 }).layout)).toBeGreaterThan(bottom(drawn({ chart: 'line' }).layout));
  });

  it('a series hidden from the legend leaves the plot and its scale; its item stays, hollow, where it can be pressed again', () => {
    const { config, layout: all } = drawn({ chart: 'bar' });
    const hidden = plotLayout({ ...config, hidden: new Set(['Power (compared)']) }, WIDTH, 300);
    const columns = (layout: PlotLayout) => marksOf(layout, 'rect').filter((rect) => rect.width !== 12 && rect.width !== 11);
    expect(columns(all)).toHaveLength(6);
    expect(columns(hidden)).toHaveLength(3);
    expect(sideTicks(hidden, 'end').at(-1)).toBe('3.0');
    expect(hidden.legend!.map((item) => [item.series, item.hidden])).toEqual([['Power', false], ['Power (compared)', true]]);
    expect(hidden.legend).toHaveLength(2);
    // each item covers its swatch and name, side by side in the legend's row under the plot
    const [first, second] = hidden.legend!;
    expect(second.x).toBeGreaterThan(first.x + first.width);
    expect(first.y + first.height).toBeLessThanOrEqual(300);
    expect(texts(hidden, 'legend')).toEqual(['Power', 'Power (compared)']);
    const swatches = marksOf(hidden, 'rect').filter((rect) => rect.width === 12 || rect.width === 11);
    expect(swatches.map((swatch) => swatch.fill)).toEqual([SERIES_PALETTE[0], '#ffffff']);
    // the hover rows are those shown
    expect(hidden.hover!.targets.every((target) => target.rows.length === 1)).toBe(true);
    // a pie loses the hidden series' slice
    const pie = drawn({ chart: 'pie' });
    expect(marksOf(plotLayout({ ...pie.config, hidden: new Set(['Power']) }, WIDTH, 300), 'path', 'slice').map((slice) => slice.series)).toEqual(['Power (compared)']);
  });

  it('counts the series a full legend cannot show', () => {
    const many = answer(...Array.from({ length: 30 }, (_, index) => series([index], { label: `Series number ${index}` })));
    const legend = texts(drawn({ chart: 'line' }, many).layout, 'legend');
    expect(legend.length).toBeLessThan(30);
    expect(legend.at(-1)).toBe(`+${30 - (legend.length - 1)}`);
  });

  it('writes values with the KPI\'s decimals in the axis, the tooltip and the labels', () => {
    const data = answer(series([1234.5678]));
    const { model, layout } = drawn({ chart: 'line', decimals: 2 }, data);
    expect(sideTicks(layout, 'end').every((tick) => /^[\d,]+\.\d\d$/.test(tick))).toBe(true);
    expect(model.formatValue(1234.5678)).toBe('1,234.57');
    expect(texts(drawn({ chart: 'pie', decimals: 0 }, data).layout, 'label')).toEqual(['1,235']);
    const german = drawn({ chart: 'line', decimals: 3 }, answer(series([1, 2])), [], { language: 'de' }).layout;
    expect(sideTicks(german, 'end')).toContain('2,000');
  });

  it('names per-entity series after the entity, and keeps two series of one label apart', () => {
    const data = answer(series([1], { entity_id: 7 }), series([2], { entity_id: 8 }), series([3]), series([4]));
    const names = chartModel({ chart: 'line' }, data, context).series.map((item) => item.name);
    expect(names).toEqual(['Power · Lamp 7', 'Power · #8', 'Power', 'Power (2)']);
  });

  it('colours bars, pie slices and line points by colourOf their value', () => {
    const values = [0, 5, 10, 49.9, 50, 100, -1];
    const data = answer(series(values));
    const definition: KpiDefinition = { chart: 'bar', colour_mapping: mapping, out_of_bounds_color: '#999999' };
    const expected = values.map((value) => colourOf(value, definition, 'power'));
    for (const chart of ['bar', 'stacked-bar', 'horizontal-bar'] as const) {
      const bars = marksOf(drawn({ ...definition, chart }, data).layout, 'rect').filter((bar) => bar.width !== 12 && bar.height !== 12);
      expect(bars.map((bar) => bar.fill), chart).toEqual(expected);
    }
    // a pie shows the last value: -1, outside every range
    expect(marksOf(drawn({ ...definition, chart: 'donut' }, answer(series([1, 60]))).layout, 'path', 'slice')[0].fill).toBe('#cc0000');
    expect(marksOf(drawn({ ...definition, chart: 'line' }, data).layout, 'circle').map((point) => point.fill)).toEqual(expected);
    // without a mapping a series keeps its palette colour and a line has no points
    expect(marksOf(drawn({ chart: 'line' }, data).layout, 'circle')).toEqual([]);
  });

  it('says an answer without points is empty', () => {
    expect(isEmptyAnswer(undefined)).toBe(true);
    expect(isEmptyAnswer(answer())).toBe(true);
    expect(isEmptyAnswer(answer(series([]), series([])))).toBe(true);
    expect(isEmptyAnswer(answer(series([]), series([1])))).toBe(false);
  });

  it('hovers the bucket under the pointer: every series\' point at that time', () => {
    const { layout } = drawn({ chart: 'bar' });
    expect(layout.hover!.axis).toBe('x');
    expect(layout.hover!.targets.map((target) => target.rows.map((row) => row.value))).toEqual([[1, 4], [2, 5], [3, 6]]);
    expect(drawn({ chart: 'horizontal-bar' }).layout.hover!.axis).toBe('y');
  });
});

describe('KPI gauge', () => {
  const definition: KpiDefinition = { chart: 'gauge', max: 100, colour_mapping: mapping, out_of_bounds_color: '#999999' };

  it('shows the last value of the first series against definition.max, its arc cut at the mapping\'s bounds', () => {
    const { model, layout } = drawn(definition, answer(series([3, 42]), { ...series([99]), compare: true }));
    const reading = gaugeReading(model);
    expect(reading).toMatchObject({ value: 42, text: '42.0', textColour: '#ffaa00' });
    expect(marksOf(layout, 'path', 'arc').map((arc) => arc.fill)).toEqual(['#00aa00', '#ffaa00', '#cc0000']);
    expect(marksOf(layout, 'path', 'needle')).toHaveLength(1);
    const [text] = marksOf(layout, 'text', 'reading');
    expect([text.text, text.fill]).toEqual(['42.0', '#ffaa00']);
    expect(texts(layout, 'tick')).toEqual(['0.0', '100.0']);
    expect(texts(layout, 'legend')).toEqual([]);
  });

  it('points its needle along the arc: left at 0, up at half, right at the maximum and beyond', () => {
    const tip = (value: number) => {
      const { d } = marksOf(drawn(definition, answer(series([value]))).layout, 'path', 'needle')[0];
      const [x0, y0, x1, y1] = d.match(/-?[\d.]+/g)!.map(Number);
      return [Math.sign(Math.round(x1 - x0)), Math.sign(Math.round(y1 - y0))];
    };
    expect(tip(0)).toEqual([-1, 0]);
    expect(tip(50)).toEqual([0, -1]);
    expect(tip(100)).toEqual([1, 0]);
    expect(tip(250)).toEqual([1, 0]);
  });

  it('gives a value on each bound one colour in the arc, the centre text, the legend and the data table', () => {
    const legend = colourLegend(definition, 'Out of range');
    const segments = gaugeSegments(definition, 'power');
    for (const bound of [0, 10, 50]) {
      const expected = colourOf(bound, definition, 'power');
      const model = chartModel(definition, answer(series([bound])), context);
      expect(gaugeColourAt(segments, bound), `arc at ${bound}`).toBe(expected);
      expect(gaugeReading(model).textColour, `text at ${bound}`).toBe(expected);
      expect(legend.find((entry) => entry.label.startsWith(mapping.find((range) => range.from === bound)!.label!))?.colour, `legend at ${bound}`).toBe(expected);
      expect(dataTableRows(model)[0].colour, `table at ${bound}`).toBe(expected);
    }
    // the maximum closes the last range [50, 100): the text says it is out of bounds, like colourOf
    expect(gaugeReading(chartModel(definition, answer(series([100])), context)).textColour).toBe(colourOf(100, definition, 'power'));
    expect(legend.at(-1)).toEqual({ label: 'Out of range', colour: '#999999' });
  });

  it('fills gaps between ranges with the out-of-bounds colour', () => {
    const gappy: KpiDefinition = { chart: 'gauge', max: 100, out_of_bounds_color: '#999999', colour_mapping: [
      { from: 20, to: 40, color: '#00aa00', property: 'power', measure: 'W', label: 'A' },
      { from: 60, to: 100, color: '#cc0000', property: 'power', measure: 'W', label: 'B' },
    ] };
    expect(gaugeSegments(gappy, 'power')).toEqual([
      { from: 0, to: 20, colour: '#999999' }, { from: 20, to: 40, colour: '#00aa00' },
      { from: 40, to: 60, colour: '#999999' }, { from: 60, to: 100, colour: '#cc0000' },
    ]);
    for (const value of [0, 19.99, 20, 39, 40, 59, 60, 99.9]) expect(gaugeColourAt(gaugeSegments(gappy, 'power'), value)).toBe(colourOf(value, gappy, 'power'));
  });
});

describe('KPI data table', () => {
  it('lists every point newest first: time in the KPI\'s zone, series, entity, value with decimals and colour', () => {
    const definition: KpiDefinition = { chart: 'data-table', decimals: 0, colour_mapping: mapping, out_of_bounds_color: '#999999' };
    const data = answer(series([5, 60], { entity_id: 7 }), { ...series([120], { entity_id: 7 }), compare: true });
    const table = dataTableRows(chartModel(definition, data, context));
    expect(table.map(({ time, series: name, entity, value, colour }) => [time, name, entity, value, colour])).toEqual([
      ['3/28/26, 1:00 AM', 'Power', 'Lamp 7', '60', '#cc0000'],
      ['3/28/26, 12:00 AM', 'Power', 'Lamp 7', '5', '#00aa00'],
      ['3/28/26, 12:00 AM', 'Power (compared)', 'Lamp 7', '120', '#999999'],
    ]);
    expect(new Set(table.map((row) => row.key)).size).toBe(3);
  });
});

describe('KPI time zone and width', () => {
  it('is UTC unless the KPI has timezone shift, then the browser\'s zone', () => {
    expect(kpiTimeZone(undefined)).toBe('UTC');
    expect(kpiTimeZone({ timezone_shift: false })).toBe('UTC');
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ timeZone: 'Asia/Kolkata' } as Intl.ResolvedDateTimeFormatOptions);
    expect(kpiTimeZone({ timezone_shift: true })).toBe('Asia/Kolkata');
  });

  it('shows times in that zone', () => {
    const data = answer(series([1]));
    const utc = drawn({ chart: 'line' }, data);
    // an hour's buckets over a day: the axis says the time of day, the tooltip date and time
    expect(texts(utc.layout, 'tick')).toContain('12:00 AM');
    expect(utc.model.formatTime(data.series[0].data[0].ts)).toBe('3/28/26, 12:00 AM');
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ timeZone: 'Asia/Kolkata' } as Intl.ResolvedDateTimeFormatOptions);
    const shifted = drawn({ chart: 'line', timezone_shift: true }, data);
    expect(shifted.model.formatTime(data.series[0].data[0].ts)).toBe('3/28/26, 5:30 AM');
  });

  it('gives a width of 1..24 columns its share of 100 %', () => {
    expect(kpiWidthPercent(24)).toBe(100);
    expect(kpiWidthPercent(12)).toBe(50);
    expect(kpiWidthPercent(6)).toBe(25);
    expect(kpiWidthPercent(undefined)).toBe(100);
    expect(kpiWidthPercent(99)).toBe(100);
    expect(kpiWidthPercent(0)).toBeCloseTo(100 / 24);
  });
});

describe('A chart of something other than a KPI answer (a lighting day)', () => {
  const data = answer(series([40, 40, 100]));
  const sunrise = new Date(START + 1.5 * HOUR_MS);
  const frame = { timeZone: 'Europe/Bratislava', valueDomain: [0, 100] as const, markers: [{ at: sunrise, label: 'Sunrise 06:00' }] };
  const withFrame = (chart: KpiDefinition['chart']) => drawn({ chart }, data, [], frame);

  it('shows its times in the zone it names, not the KPI\'s', () => {
    expect(withFrame('time-scale').model.formatTime(data.series[0].data[0].ts)).toBe('3/28/26, 1:00 AM');
  });

  it('keeps its value axis to the range it gives, on lines and bars; without one it fits the values', () => {
    for (const chart of ['line', 'time-scale', 'bar'] as const) {
      const ticks = sideTicks(withFrame(chart).layout, 'end');
      expect(ticks[0], chart).toBe('0.0');
      expect(ticks.at(-1), chart).toBe('100.0');
    }
    expect(sideTicks(drawn({ chart: 'line' }, answer(series([40, 42]))).layout, 'end').at(-1)).not.toBe('100.0');
  });

  it('marks its instants with labelled lines on a time scale only', () => {
    const { layout } = withFrame('time-scale');
    const [line] = marksOf(layout, 'path', 'marker');
    expect(line.stroke).toBe(MARKER_COLOUR);
    expect(line.dash).toBeTruthy();
    expect(texts(layout, 'marker')).toEqual(['Sunrise 06:00']);
    // halfway between the second and third points' instants
    const points = marksOf(layout, 'path', 'series')[0].d.match(/-?[\d.]+/g)!.map(Number);
    expect(Number(line.d.match(/-?[\d.]+/)![0])).toBeCloseTo((points[2] + points[4]) / 2, 0);
    expect(marksOf(withFrame('line').layout, 'path', 'marker')).toEqual([]);
    expect(marksOf(drawn({ chart: 'time-scale' }).layout, 'path', 'marker')).toEqual([]);
  });
});

describe('KPI time axis ticks', () => {
  const tick = (interval: string, from: string, to: string) => axisTimeFormatter('en-US', 'UTC', { interval, from, to })('2026-03-28T00:00:00.000Z');
  it('say as much as the buckets need', () => {
    expect(tick('1M', '2025-04-01T00:00:00Z', '2026-04-01T00:00:00Z')).toBe('Mar 2026');
    expect(tick('1d', '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z')).toBe('Mar 28');
    expect(tick('1h', '2026-03-21T00:00:00Z', '2026-03-29T00:00:00Z')).toBe('Mar 28, 12:00 AM');
    expect(tick('15m', '2026-03-27T12:00:00Z', '2026-03-28T12:00:00Z')).toBe('12:00 AM');
  });
});
