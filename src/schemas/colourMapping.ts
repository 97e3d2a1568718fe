// A KPI's colour mapping (SPEC §5): ranges [from, to) of one property's values, each with a colour,
// a measure and a label, and one colour for every value outside them. The one rule that checks a
// mapping (the KPI form in the browser, the KPI rules on the server) and the one function that
// colours a value (gauge arc, centre text, legend, bars and data table) live here.

export interface ColourRange {
  from?: number;
  to?: number;
  color?: string;
  measure?: string;
  property?: string;
  label?: string;
}

export interface ColourMappingDefinition {
  chart?: string;
  max?: number;
  colour_mapping?: readonly ColourRange[];
  out_of_bounds_color?: string;
}

/** Error codes of a refused mapping; SPEC §5 gives the first three their words. */
export const COLOUR_MAPPING_MESSAGES = {
  KPI_CONDITIONS_EMPTY: 'Fill in conditions to continue',
  KPI_CONDITIONS_INVALID: 'Conditions that you entered are not valid',
  KPI_COLOUR_OUT_OF_BOUNDS: 'Color is out of bounds',
  KPI_GAUGE_MAXIMUM: 'The last value must equal the chart maximum',
} as const;
export type ColourMappingCode = keyof typeof COLOUR_MAPPING_MESSAGES;

export interface ColourMappingProblem {
  code: ColourMappingCode;
  /** Path of the field at fault, from the KPI record (`definition.colour_mapping.1.from`). */
  field: string;
  message: string;
}

const problem = (code: ColourMappingCode, field: string): ColourMappingProblem => ({ code, field, message: COLOUR_MAPPING_MESSAGES[code] });
const isBound = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The ranges of one property in ascending order (a mapping may colour several properties). */
function rangesByProperty(mapping: readonly ColourRange[]): Map<string, Array<{ range: ColourRange; index: number }>> {
  const byProperty = new Map<string, Array<{ range: ColourRange; index: number }>>();
  mapping.forEach((range, index) => {
    const key = range.property ?? '';
    byProperty.set(key, [...(byProperty.get(key) ?? []), { range, index }]);
  });
  for (const ranges of byProperty.values()) ranges.sort((a, b) => a.range.from! - b.range.from!);
  return byProperty;
}

/**
 * What is wrong with a definition's colour mapping, first problem first, or undefined: a range
 * without both bounds, a range that does not run forwards or overlaps another of its property, no
 * out-of-bounds colour, or a gauge whose last bound is not its maximum.
 */
export function colourMappingProblem(definition: ColourMappingDefinition | undefined): ColourMappingProblem | undefined {
  const mapping = definition?.colour_mapping ?? [];
  if (!mapping.length) return undefined;
  const at = (index: number, key: string) => `definition.colour_mapping.${index}.${key}`;
  for (const [index, range] of mapping.entries()) {
    if (!isBound(range.from)) return problem('KPI_CONDITIONS_EMPTY', at(index, 'from'));
    if (!isBound(range.to)) return problem('KPI_CONDITIONS_EMPTY', at(index, 'to'));
    if (!(range.from < range.to)) return problem('KPI_CONDITIONS_INVALID', at(index, 'to'));
  }
  for (const ranges of rangesByProperty(mapping).values()) {
    for (let i = 1; i < ranges.length; i++) {
      if (ranges[i].range.from! < ranges[i - 1].range.to!) return problem('KPI_CONDITIONS_INVALID', at(ranges[i].index, 'from'));
    }
  }
  if (!definition?.out_of_bounds_color) return problem('KPI_COLOUR_OUT_OF_BOUNDS', 'definition.out_of_bounds_color');
  if (definition.chart === 'gauge') {
    const last = Math.max(...mapping.map((range) => range.to!));
    if (last !== definition.max) return problem('KPI_GAUGE_MAXIMUM', 'definition.max');
  }
  return undefined;
}

/** The range a value falls in, [from, to), among those of its property (all when none is named). */
export function colourRangeOf(value: number, definition: ColourMappingDefinition | undefined, property?: string): ColourRange | undefined {
  return (definition?.colour_mapping ?? []).find((range) =>
    (property === undefined || range.property === property) && isBound(range.from) && isBound(range.to) && range.from <= value && value < range.to);
}

/**
 * The colour of a value: its range's, else the out-of-bounds colour; undefined when the KPI maps
 * no colours (the chart's own palette applies).
 */
export function colourOf(value: number, definition: ColourMappingDefinition | undefined, property?: string): string | undefined {
  if (!definition?.colour_mapping?.length) return undefined;
  return colourRangeOf(value, definition, property)?.color ?? definition.out_of_bounds_color;
}
