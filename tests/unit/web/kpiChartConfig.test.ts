// The KPI charts' configs (SPEC §3, §5, §9): what each chart type hands to the plots library —
// type, stacking, donut hole, value axis side and ticks, legend, decimals, colours from colourOf,
// the comparison series drawn apart — and the gauge, the data table and the time-zone helpers.
import { axisTimeFormatter } from '../../../src/components/charts/chartFormat.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { colourOf } from '../../../src/schemas/colourMapping.ts';
import { gaugeColourAt, gaugeSegments, colourLegend, lighterColour, SERIES_PALETTE } from '../../../src/components/charts/chartColours.ts';
import { compareDash, gaugeReading, MARKER_COLOUR, MAX_BAND_TICKS, plotConfigOf, type PlotOptions } from '../../../src/components/charts/chartConfig.ts';
import { chartModel } from '../../../src/components/charts/chartModel.ts';
import { isEmptyAnswer } from '../../../src/components/charts/chartSeries.ts';
import { dataTableRows } from '../../../src/components/charts/dataTableRows.ts';
import { kpiTimeZone } from '../../../src/components/charts/kpiTimeZone.ts';
import { kpiWidthPercent } from '../../../src/components/charts/kpiWidth.ts';
import type { ChartRow, KpiDefinition } from '../../../src/components/charts/kpiTypes.ts';
import type { KpiDataAnswer } from '../../../src/schemas/kpiDataQuery.ts';
import { answer, HOUR_MS, series, START } from '../../support/kpiAnswers.ts';

const context = { language: 'en', comparedSuffix: '(compared)', entityNames: { 7: 'Lamp 7' } };
const withCompare = answer(series([1, 2, 3]), { ...series([4, 5, 6]), compare: true });
const mapping: KpiDefinition['colour_mapping'] = [
  { from: 0, to: 10, color: '#00aa00', property: 'power', measure: 'W', label: 'Low' },
  { from: 10, to: 50, color: '#ffaa00', property: 'power', measure: 'W', label: 'Mid' },
  { from: 50, to: 100, color: '#cc0000', property: 'power', measure: 'W', label: 'High' },
];

function config(definition: KpiDefinition, data: KpiDataAnswer = withCompare) {
  const model = chartModel(definition, data, context);
  return { model, config: plotConfigOf(definition.chart, model)! };
}
const at = (options: PlotOptions, path: string) => path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], options);
const rows = (options: PlotOptions) => options.data as ChartRow[];

afterEach(() => vi.restoreAllMocks());

describe('KPI chart configs per type', () => {
  it('bar: vertical columns side by side, one colour per series', () => {
    const { config: bar } = config({ chart: 'bar' });
    expect(bar.plot).toBe('Column');
    expect(bar.options.group).toBe(true);
    expect(bar.options.stack).toBeUndefined();
    expect(bar.options.colorField).toBe('series');
    expect(at(bar.options, 'scale.color')).toEqual({ domain: ['Power', 'Power (compared)'], range: [SERIES_PALETTE[0], lighterColour(SERIES_PALETTE[0])] });
  });

  it('stacked-bar: columns stacked by series', () => {
    const { config: stacked } = config({ chart: 'stacked-bar' });
    expect(stacked.plot).toBe('Column');
    expect(stacked.options.stack).toBe(true);
    expect(stacked.options.colorField).toBe('series');
  });

  it('horizontal-bar: the Bar plot', () => {
    expect(config({ chart: 'horizontal-bar' }).config.plot).toBe('Bar');
  });

  it('line: a Line over the buckets; time-scale: a Line with a time x scale and an area', () => {
    const { config: line } = config({ chart: 'line' });
    expect(line.plot).toBe('Line');
    expect(line.options.xField).toBe('ts');
    expect(at(line.options, 'scale.x')).toBeUndefined();
    const { config: timeScale } = config({ chart: 'time-scale' });
    expect(timeScale.plot).toBe('Line');
    expect(timeScale.options.xField).toBe('time');
    expect(at(timeScale.options, 'scale.x.type')).toBe('time');
    expect(timeScale.options.area).toBeTruthy();
    expect(rows(timeScale.options)[0].time).toBeInstanceOf(Date);
  });

  it('pie: one slice per series (its last value); donut: with a hole', () => {
    const { config: pie } = config({ chart: 'pie' });
    expect(pie.plot).toBe('Pie');
    expect(pie.options.innerRadius).toBeUndefined();
    expect(rows(pie.options).map((row) => [row.series, row.value])).toEqual([['Power', 3], ['Power (compared)', 6]]);
    const { config: donut } = config({ chart: 'donut' });
    expect(donut.plot).toBe('Pie');
    expect(donut.options.innerRadius).toBeGreaterThan(0);
  });

  it('data-table: no plot (the table draws it)', () => {
    expect(plotConfigOf('data-table', chartModel({ chart: 'data-table' }, withCompare, context))).toBeUndefined();
  });
});

describe('KPI chart options', () => {
  it('puts the value axis left by default and right with y_axis right, with split_number ticks', () => {
    expect(at(config({ chart: 'line' }).config.options, 'axis.y.position')).toBe('left');
    expect(at(config({ chart: 'line' }).config.options, 'axis.y.tickCount')).toBeUndefined();
    const right = config({ chart: 'bar', y_axis: 'right', split_number: 7 }).config.options;
    expect(at(right, 'axis.y.position')).toBe('right');
    expect(at(right, 'axis.y.tickCount')).toBe(7);
  });

  describe('two value axes: query items on both sides', () => {
    // power (item 0) on the left, temperature (item 1) on the right, each with its comparison
    const twoItems = answer(
      series([100, 200, 300]), { ...series([110, 210, 310]), compare: true },
      series([20, 21, 22], { item: 1, label: 'Temperature', key: 'temperature' }), { ...series([19, 20, 21], { item: 1, label: 'Temperature', key: 'temperature' }), compare: true },
    );
    const query = [{ key: 'power', aggregation: 'avg' as const }, { key: 'temperature', aggregation: 'avg' as const, y_axis: 'right' as const }];
    const dual = (definition: KpiDefinition) => plotConfigOf(definition.chart, chartModel(definition, twoItems, context, query))!;
    const children = (options: PlotOptions) => options.children as PlotOptions[];
    const seriesOf = (child: PlotOptions) => [...new Set(rows(child).map((row) => row.series))];

    it('line and time-scale: a line per side, each side its own axis, the comparison on its series\' side', () => {
      for (const chart of ['line', 'time-scale'] as const) {
        const plot = dual({ chart, split_number: 5 });
        expect(plot.plot).toBe('DualAxes');
        expect(plot.seriesCount).toBe(4);
        const [left, right] = children(plot.options);
        expect([left.type, right.type]).toEqual(['line', 'line']);
        expect([at(left, 'axis.y.position'), at(right, 'axis.y.position')]).toEqual(['left', 'right']);
        expect(at(right, 'axis.y.tickCount')).toBe(5);
        expect(seriesOf(left)).toEqual(['Power', 'Power (compared)']);
        expect(seriesOf(right)).toEqual(['Temperature', 'Temperature (compared)']);
        // one colour scale over both sides: one legend entry per series
        expect(at(plot.options, 'scale.color.domain')).toEqual(['Power', 'Power (compared)', 'Temperature', 'Temperature (compared)']);
      }
      expect(at(dual({ chart: 'time-scale' }).options, 'scale.x.type')).toBe('time');
    });

    it('bar and stacked-bar: the left side\'s bars, the right side\'s series as lines over them', () => {
      const [bars, lines] = children(dual({ chart: 'bar' }).options);
      expect(bars.type).toBe('interval');
      expect(bars.transform).toEqual([{ type: 'dodgeX' }]);
      expect(lines.type).toBe('line');
      expect((children(dual({ chart: 'stacked-bar' }).options)[0]).transform).toEqual([{ type: 'stackY' }]);
    });

    it('the chart\'s y_axis places the items without one: all on one side is one axis', () => {
      // temperature right, power follows the chart's right axis: both right, one plain axis
      expect(dual({ chart: 'line', y_axis: 'right' }).plot).toBe('Line');
      expect(at(dual({ chart: 'line', y_axis: 'right' }).options, 'axis.y.position')).toBe('right');
      // an item placed left against a right chart axis: two again
      const flipped = plotConfigOf('line', chartModel({ chart: 'line', y_axis: 'right' }, twoItems, context, [{ ...query[0], y_axis: 'left' }, { ...query[1], y_axis: undefined }]))!;
      expect(flipped.plot).toBe('DualAxes');
      expect(seriesOf(children(flipped.options)[1])).toEqual(['Temperature', 'Temperature (compared)']);
    });

    it('pie, donut, gauge, horizontal bar and table keep their one plot', () => {
      expect(dual({ chart: 'pie' }).plot).toBe('Pie');
      expect(dual({ chart: 'horizontal-bar' }).plot).toBe('Bar');
      expect(dual({ chart: 'gauge', max: 100 }).plot).toBe('Gauge');
      expect(plotConfigOf('data-table', chartModel({ chart: 'data-table' }, twoItems, context, query))).toBeUndefined();
    });
  });

  it('a band time axis of many buckets draws at most MAX_BAND_TICKS ticks, evenly; a time scale keeps its own', () => {
    const year = answer(series(Array.from({ length: 365 }, (_, index) => index)));
    for (const chart of ['line', 'bar', 'stacked-bar', 'horizontal-bar'] as const) {
      const filter = at(config({ chart }, year).config.options, 'axis.x.tickFilter') as (tick: unknown, index: number) => boolean;
      const kept = Array.from({ length: 365 }, (_, index) => index).filter((index) => filter(undefined, index));
      expect(kept.length).toBeLessThanOrEqual(MAX_BAND_TICKS);
      expect(kept.length).toBeGreaterThanOrEqual(MAX_BAND_TICKS - 1);
      expect(new Set(kept.slice(1).map((index, n) => index - kept[n])).size).toBe(1);
    }
    expect(at(config({ chart: 'time-scale' }, year).config.options, 'axis.x.tickFilter')).toBeUndefined();
    // a day of hours is few enough: every bucket a tick
    expect(at(config({ chart: 'line' }, answer(series([1, 2, 3]))).config.options, 'axis.x.tickFilter')).toBeUndefined();
  });

  it('turns the legend off, and sets the height', () => {
    expect(config({ chart: 'line', legend: false }).config.options.legend).toBe(false);
    expect(config({ chart: 'line' }).config.options.legend).toBeTruthy();
    expect(config({ chart: 'line', height: 420 }).config.options.height).toBe(420);
    expect(config({ chart: 'line' }).config.options.height).toBe(300);
  });

  it('writes values with the KPI\'s decimals in the axis, the tooltip and the labels', () => {
    const data = answer(series([1234.5678]));
    const options = config({ chart: 'line', decimals: 2 }, data).config.options;
    expect((at(options, 'axis.y.labelFormatter') as (v: number) => string)(1234.5678)).toBe('1,234.57');
    const item = (at(options, 'tooltip.items') as ((row: ChartRow) => { value: string })[])[0](rows(options)[0]);
    expect(item.value).toBe('1,234.57');
    const pie = config({ chart: 'pie', decimals: 0 }, data).config.options;
    expect((at(pie, 'label.text') as (row: ChartRow) => string)(rows(pie)[0])).toBe('1,235');
    const german = plotConfigOf('line', chartModel({ chart: 'line', decimals: 3 }, data, { ...context, language: 'de' }))!.options;
    expect((at(german, 'axis.y.labelFormatter') as (v: number) => string)(2)).toBe('2,000');
  });

  it('draws the comparison apart: its own legend entry, dashed, lighter bars, never merged', () => {
    const { config: line } = config({ chart: 'line' });
    const names = new Set(rows(line.options).map((row) => row.series));
    expect([...names]).toEqual(['Power', 'Power (compared)']);
    expect(line.seriesCount).toBe(2);
    const compared = rows(line.options).filter((row) => row.compare);
    expect(compared.map((row) => row.value)).toEqual([4, 5, 6]);
    expect(compareDash(compared)).toEqual([6, 4]);
    expect(compareDash(rows(line.options).filter((row) => !row.compare))).toBeUndefined();
    const { config: bar } = config({ chart: 'bar' });
    const opacity = at(bar.options, 'style.fillOpacity') as (row: ChartRow) => number;
    expect(opacity(compared[0])).toBeLessThan(1);
    expect(opacity(rows(bar.options)[0])).toBe(1);
    expect((at(bar.options, 'style.lineDash') as typeof compareDash)(compared[0])).toEqual([6, 4]);
  });

  it('names per-entity series after the entity, and keeps two series of one label apart', () => {
    const data = answer(series([1], { entity_id: 7 }), series([2], { entity_id: 8 }), series([3]), series([4]));
    const names = chartModel({ chart: 'line' }, data, context).series.map((item) => item.name);
    expect(names).toEqual(['Power · Lamp 7', 'Power · #8', 'Power', 'Power (2)']);
  });

  it('colours bars, pie slices and line points by colourOf their value', () => {
    const data = answer(series([0, 5, 10, 49.9, 50, 100, -1]));
    const definition: KpiDefinition = { chart: 'bar', colour_mapping: mapping, out_of_bounds_color: '#999999' };
    for (const chart of ['bar', 'stacked-bar', 'horizontal-bar', 'pie', 'donut'] as const) {
      const options = config({ ...definition, chart }, data).config.options;
      const fill = at(options, 'style.fill') as (row: ChartRow) => string;
      for (const row of rows(options)) expect(fill(row), `${chart} ${row.value}`).toBe(colourOf(row.value, definition, 'power'));
    }
    const line = config({ ...definition, chart: 'line' }, data).config.options;
    const pointFill = at(line, 'point.style.fill') as (row: ChartRow) => string;
    for (const row of rows(line)) expect(pointFill(row)).toBe(colourOf(row.value, definition, 'power'));
    // without a mapping a series keeps its palette colour and a line has no points
    expect(config({ chart: 'line' }, data).config.options.point).toBeUndefined();
  });

  it('says an answer without points is empty', () => {
    expect(isEmptyAnswer(undefined)).toBe(true);
    expect(isEmptyAnswer(answer())).toBe(true);
    expect(isEmptyAnswer(answer(series([]), series([])))).toBe(true);
    expect(isEmptyAnswer(answer(series([]), series([1])))).toBe(false);
  });
});

describe('KPI gauge', () => {
  const definition: KpiDefinition = { chart: 'gauge', max: 100, colour_mapping: mapping, out_of_bounds_color: '#999999' };

  it('shows the last value of the first series against definition.max, its arc cut at the mapping\'s bounds', () => {
    const { config: gauge } = config(definition, answer(series([3, 42]), { ...series([99]), compare: true }));
    expect(gauge.plot).toBe('Gauge');
    expect(gauge.options.data).toEqual({ target: 42, total: 100, thresholds: [10, 50, 100] });
    expect(at(gauge.options, 'scale.color.range')).toEqual(['#00aa00', '#ffaa00', '#cc0000']);
    expect((at(gauge.options, 'style.textContent') as () => string)()).toBe('42.0');
    expect(at(gauge.options, 'style.textFill')).toBe('#ffaa00');
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
    const utc = config({ chart: 'line' }, data).config.options;
    // an hour's buckets over a day: the axis says the time of day, the tooltip date and time
    expect((at(utc, 'axis.x.labelFormatter') as (ts: string) => string)(rows(utc)[0].ts)).toBe('12:00 AM');
    expect((at(utc, 'tooltip.title') as (row: ChartRow) => string)(rows(utc)[0])).toBe('3/28/26, 12:00 AM');
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ timeZone: 'Asia/Kolkata' } as Intl.ResolvedDateTimeFormatOptions);
    const shifted = config({ chart: 'line', timezone_shift: true }, data).config.options;
    expect((at(shifted, 'tooltip.title') as (row: ChartRow) => string)(rows(shifted)[0])).toBe('3/28/26, 5:30 AM');
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
  const sunrise = new Date(START + 5 * HOUR_MS);
  const withFrame = (chart: KpiDefinition['chart']) => plotConfigOf(chart, chartModel({ chart }, data, {
    ...context, timeZone: 'Europe/Bratislava', valueDomain: [0, 100], markers: [{ at: sunrise, label: 'Sunrise 06:00' }],
  }))!.options;

  it('shows its times in the zone it names, not the KPI\'s', () => {
    const options = withFrame('time-scale');
    expect((at(options, 'tooltip.title') as (row: ChartRow) => string)(rows(options)[0])).toBe('3/28/26, 1:00 AM');
  });

  it('keeps its value axis to the range it gives, on lines and bars; without one the library fits it', () => {
    for (const chart of ['line', 'time-scale', 'bar'] as const) expect(at(withFrame(chart), 'scale.y')).toEqual({ domain: [0, 100], nice: false });
    expect(at(config({ chart: 'time-scale' }).config.options, 'scale.y')).toBeUndefined();
    // the colour scale stays beside it
    expect(at(withFrame('time-scale'), 'scale.color.domain')).toEqual(['Power']);
    expect(at(withFrame('time-scale'), 'scale.x.type')).toBe('time');
  });

  it('marks its instants with labelled lines on a time scale only', () => {
    const [markers] = at(withFrame('time-scale'), 'annotations') as PlotOptions[];
    expect(markers.type).toBe('lineX');
    expect(markers.xField).toBe('time');
    expect(markers.data).toEqual([{ time: sunrise, label: 'Sunrise 06:00' }]);
    expect(at(markers, 'style.stroke')).toBe(MARKER_COLOUR);
    expect((markers.labels as PlotOptions[])[0].text).toBe('label');
    expect(at(withFrame('line'), 'annotations')).toBeUndefined();
    expect(at(config({ chart: 'time-scale' }).config.options, 'annotations')).toBeUndefined();
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
