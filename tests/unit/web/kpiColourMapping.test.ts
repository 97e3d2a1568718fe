// The KPI colour mapping (SPEC §5): the rule that refuses a mapping and the colour of a value,
// proved over random rule sets and values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colourMappingProblem, colourOf, type ColourMappingDefinition, type ColourRange } from '../../../src/schemas/colourMapping.ts';

const RUNS = 10_000;
const OUT = '#999999';
const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`);
const range = (from: number, to: number, color: string, property = 'co2'): ColourRange => ({ from, to, color, property, measure: 'ppm', label: `${from}–${to}` });

/** Valid mappings: ascending cut points, each range kept or left as a gap, one property. */
const validMapping = fc
  .tuple(fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), { minLength: 2, maxLength: 12 }), fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }), fc.array(hex, { minLength: 11, maxLength: 11 }))
  .map(([cuts, kept, colours]) => {
    const sorted = [...cuts].sort((a, b) => a - b);
    const ranges = sorted.slice(1).map((to, i) => ({ keep: kept[i] || i === 0, value: range(sorted[i], to, colours[i]) }));
    return ranges.filter((candidate) => candidate.keep).map((candidate) => candidate.value);
  })
  .chain((ranges) => fc.shuffledSubarray(ranges, { minLength: ranges.length, maxLength: ranges.length }));

/** Any mapping: ranges anywhere, overlapping or not. */
const anyMapping = fc.array(
  fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 30 }), hex, fc.constantFrom('co2', 'power')).map(([from, length, color, property]) => range(from, from + length, color, property)),
  { minLength: 1, maxLength: 8 },
);

const overlaps = (ranges: ColourRange[]) => ranges.some((a, i) => ranges.some((b, j) => i < j && a.property === b.property && a.from! < b.to! && b.from! < a.to!));

describe('KPI colour mapping', () => {
  it('gives every value exactly one colour: its range\'s, or the out-of-bounds colour', () => {
    const values = (ranges: ColourRange[]) => fc.oneof(fc.integer({ min: -1100, max: 1100 }), fc.double({ min: -1100, max: 1100, noNaN: true }), fc.constantFrom(...ranges.flatMap((r) => [r.from!, r.to!])));
    fc.assert(
      fc.property(validMapping.chain((ranges) => fc.tuple(fc.constant(ranges), values(ranges))), ([ranges, value]) => {
        const definition: ColourMappingDefinition = { chart: 'bar', colour_mapping: ranges, out_of_bounds_color: OUT };
        expect(colourMappingProblem(definition)).toBeUndefined();
        const containing = ranges.filter((r) => r.from! <= value && value < r.to!);
        expect(containing.length).toBeLessThanOrEqual(1);
        expect(colourOf(value, definition)).toBe(containing[0]?.color ?? OUT);
        expect(colourOf(value, definition, 'co2')).toBe(containing[0]?.color ?? OUT);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a mapping exactly when two ranges of one property overlap', () => {
    fc.assert(
      fc.property(anyMapping, (ranges) => {
        const found = colourMappingProblem({ colour_mapping: ranges, out_of_bounds_color: OUT });
        if (overlaps(ranges)) expect(found).toMatchObject({ code: 'KPI_CONDITIONS_INVALID', message: 'Conditions that you entered are not valid' });
        else expect(found).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('gives a bound the colour of the range it starts', () => {
    const definition = { colour_mapping: [range(0, 400, '#00aa00'), range(400, 1000, '#ffaa00'), range(1000, 2000, '#dd0000')], out_of_bounds_color: OUT };
    expect([0, 399.999, 400, 1000, 1999, 2000, -1].map((value) => colourOf(value, definition))).toEqual(['#00aa00', '#00aa00', '#ffaa00', '#dd0000', '#dd0000', OUT, OUT]);
    expect(colourOf(5, { colour_mapping: [] })).toBeUndefined();
  });

  it('names each refusal in the words of SPEC §5', () => {
    expect(colourMappingProblem({ colour_mapping: [{ ...range(0, 10, '#000000'), to: undefined }], out_of_bounds_color: OUT }))
      .toEqual({ code: 'KPI_CONDITIONS_EMPTY', field: 'definition.colour_mapping.0.to', message: 'Fill in conditions to continue' });
    expect(colourMappingProblem({ colour_mapping: [range(10, 10, '#000000')], out_of_bounds_color: OUT }))
      .toMatchObject({ code: 'KPI_CONDITIONS_INVALID', field: 'definition.colour_mapping.0.to' });
    expect(colourMappingProblem({ colour_mapping: [range(0, 10, '#000000')] }))
      .toEqual({ code: 'KPI_COLOUR_OUT_OF_BOUNDS', field: 'definition.out_of_bounds_color', message: 'Color is out of bounds' });
    expect(colourMappingProblem({ chart: 'gauge', max: 100, colour_mapping: [range(0, 10, '#000000')], out_of_bounds_color: OUT }))
      .toMatchObject({ code: 'KPI_GAUGE_MAXIMUM', field: 'definition.max' });
    expect(colourMappingProblem({ chart: 'gauge', max: 10, colour_mapping: [range(0, 10, '#000000')], out_of_bounds_color: OUT })).toBeUndefined();
  });
});
