// Every colour a KPI chart uses. Series take the palette in order, a comparison a lighter tint of
// the series it compares; with a colour mapping, a value's colour is colourOf's (SPEC §5) — in the
// bars and points, the gauge's arc and centre text, the legend and the data table alike.
import { colourOf } from '../../schemas/colourMapping.ts';
import type { KpiDefinition } from './kpiTypes.ts';
import type { DrawnSeries } from './chartSeries.ts';

export const SERIES_PALETTE = ['#1f6fb4', '#e8710a', '#2e9e44', '#c9302c', '#7b4fb0', '#8c564b', '#d6489f', '#6b6b6b', '#a3a316', '#17a2b8'] as const;

/** The colour halfway to white: a comparison's tint of its series' colour. */
export function lighterColour(hex: string): string {
  const rgb = /^#([0-9a-f]{6})$/i.exec(hex)?.[1];
  if (!rgb) return hex;
  const channel = (offset: number) => Math.round((parseInt(rgb.slice(offset, offset + 2), 16) + 255) / 2).toString(16).padStart(2, '0');
  return `#${channel(0)}${channel(2)}${channel(4)}`;
}

/** Each drawn series' colour, by name. */
export function seriesColours(series: readonly DrawnSeries[]): Map<string, string> {
  const colours = new Map<string, string>();
  let index = 0;
  for (const item of series) {
    if (item.compare) continue;
    colours.set(item.name, SERIES_PALETTE[index % SERIES_PALETTE.length]);
    index += 1;
  }
  for (const item of series) {
    if (item.compare) colours.set(item.name, lighterColour(colours.get(item.mainName) ?? SERIES_PALETTE[0]));
  }
  return colours;
}

/** The KPI maps colours to values. */
export const hasColourMapping = (definition: KpiDefinition | undefined): boolean => !!definition?.colour_mapping?.length;

/**
 * Which of the mapping's properties colours a series of `key`: the key itself when a range names
 * it; otherwise every range applies (a mapping written for the chart as a whole).
 */
export function colourPropertyOf(definition: KpiDefinition | undefined, key: string | undefined): string | undefined {
  return key !== undefined && definition?.colour_mapping?.some((range) => range.property === key) ? key : undefined;
}

/** A value's colour under the KPI's mapping (undefined without one: the series' colour applies). */
export function valueColour(value: number, definition: KpiDefinition | undefined, key: string | undefined): string | undefined {
  return colourOf(value, definition, colourPropertyOf(definition, key));
}

export interface ColourSegment {
  from: number;
  to: number;
  colour: string;
}

/**
 * The gauge's arc from 0 to definition.max, cut at every bound of the mapping's ranges; each piece
 * takes colourOf its first value, so a value on a bound has the same colour in the arc as in the
 * centre text, the legend and the data table. Without a mapping: one piece of the first palette colour.
 */
export function gaugeSegments(definition: KpiDefinition, key: string | undefined): ColourSegment[] {
  const max = definition.max ?? 0;
  if (!(max > 0)) return [];
  if (!hasColourMapping(definition)) return [{ from: 0, to: max, colour: SERIES_PALETTE[0] }];
  const property = colourPropertyOf(definition, key);
  const bounds = (definition.colour_mapping ?? [])
    .filter((range) => property === undefined || range.property === property)
    .flatMap((range) => [range.from, range.to])
    .filter((bound): bound is number => typeof bound === 'number' && bound > 0 && bound < max);
  const cuts = [...new Set([0, ...bounds, max])].sort((a, b) => a - b);
  const segments: ColourSegment[] = [];
  for (let i = 1; i < cuts.length; i += 1) {
    const colour = colourOf(cuts[i - 1], definition, property) ?? SERIES_PALETTE[0];
    const previous = segments.at(-1);
    if (previous && previous.colour === colour) previous.to = cuts[i];
    else segments.push({ from: cuts[i - 1], to: cuts[i], colour });
  }
  return segments;
}

/** The colour of the gauge's arc at a value: the segment [from, to) holding it. */
export function gaugeColourAt(segments: readonly ColourSegment[], value: number): string | undefined {
  return segments.find((segment) => segment.from <= value && value < segment.to)?.colour;
}

export interface LegendEntry {
  label: string;
  colour: string;
}

/** The mapping's legend: each range's label and measure with its colour, then the out-of-bounds colour. */
export function colourLegend(definition: KpiDefinition | undefined, outOfBoundsLabel: string): LegendEntry[] {
  if (!hasColourMapping(definition)) return [];
  const ranges = [...(definition!.colour_mapping ?? [])].sort((a, b) => (a.from ?? 0) - (b.from ?? 0));
  const entries = ranges.flatMap((range): LegendEntry[] => {
    const colour = typeof range.from === 'number' ? colourOf(range.from, definition, range.property) : undefined;
    if (!colour) return [];
    const span = `${range.from} – ${range.to}${range.measure ? ` ${range.measure}` : ''}`;
    return [{ label: range.label ? `${range.label} (${span})` : span, colour }];
  });
  const outside = definition!.out_of_bounds_color;
  return outside ? [...entries, { label: outOfBoundsLabel, colour: outside }] : entries;
}
