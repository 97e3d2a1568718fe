// The map's filter and colour expressions, compiled and evaluated by MapLibre's own style
// specification against features as the map holds them (properties and feature state): the
// level filter, the group colours with the rest dimmed, and the colouring rules, first match
// winning, with mixed value types that would make a careless comparison fail.
import { expression, featureFilter, latest } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { DIMMED } from '../../../src/components/map/core/colourPalette.ts';
import type { ColourRule } from '../../../src/components/map/core/colourRules.ts';
import { clusterFilter, clusterLevelKey, clusterLevelProperties, entityColour, levelFilter, type MapColouring } from '../../../src/components/map/core/entityStyle.ts';
import { GROUP_STATE, groupColours, memberGroups } from '../../../src/components/map/core/groupColours.ts';

interface Drawn { properties: Record<string, unknown>; state?: Record<string, unknown> }

/** The colour MapLibre draws `feature` in, as #rrggbb. */
function colourOf(colouring: MapColouring, { properties, state = {} }: Drawn): string {
  const compiled = expression.createPropertyExpression(entityColour(colouring), 'paint.circle-color', latest.paint_circle['circle-color'] as never);
  if (compiled.result !== 'success') throw new Error(JSON.stringify(compiled.value));
  const colour = compiled.value.evaluate({ zoom: 13 }, { type: 1, properties, id: 1 } as never, state) as { r: number; g: number; b: number };
  return `#${[colour.r, colour.g, colour.b].map((channel) => Math.round(channel * 255).toString(16).padStart(2, '0')).join('')}`;
}

const passes = (filter: unknown, properties: Record<string, unknown>) =>
  featureFilter(filter as never, 'filter').filter({ zoom: 13 }, { type: 1, properties } as never);

describe('level filter', () => {
  it('keeps the entities of the chosen level only, and every entity without one', () => {
    expect(passes(levelFilter(1), { level: 1 })).toBe(true);
    expect(passes(levelFilter(1), { level: 0 })).toBe(false);
    expect(passes(levelFilter(-2), { level: -2 })).toBe(true);
    expect(passes(levelFilter(undefined), { level: 7 })).toBe(true);
    // with the point layer's own condition (no clusters)
    expect(passes(levelFilter(0, ['!', ['has', 'point_count']]), { level: 0, point_count: 4 })).toBe(false);
    expect(passes(levelFilter(0, ['!', ['has', 'point_count']]), { level: 0 })).toBe(true);
  });

  it('draws a cluster only when it holds points of the chosen level', () => {
    expect(clusterLevelProperties([0])).toBeUndefined(); // one level: nothing to tell apart
    expect(Object.keys(clusterLevelProperties([0, 2])!)).toEqual([clusterLevelKey(0), clusterLevelKey(2)]);
    const atTwo = clusterFilter(2, true);
    expect(passes(atTwo, { point_count: 5, [clusterLevelKey(2)]: 1 })).toBe(true);
    expect(passes(atTwo, { point_count: 5, [clusterLevelKey(2)]: 0 })).toBe(false);
    expect(passes(atTwo, { point_count: 5 })).toBe(false); // a level the map has no count for
    expect(passes(atTwo, { level: 2 })).toBe(false); // not a cluster
    expect(passes(clusterFilter(undefined, true), { point_count: 5 })).toBe(true);
  });
});

describe('group colours', () => {
  const groups = [
    { id: 11, name: 'Lighting', attributes: { color: '#fadb14' } },
    { id: 12, name: 'No colour', attributes: {} },
    { id: 13, name: 'Bad colour', attributes: { color: 'red; background: url(x)' } },
  ];

  it('gives each chosen group its own colour, else a palette colour that stays with the group', () => {
    const chosen = groupColours([12, 11, 99], groups);
    expect(chosen.map((group) => group.id)).toEqual([12, 11]); // 99 is no group of the tenant
    expect(chosen[1].colour).toBe('#fadb14');
    expect(chosen[0].colour).toMatch(/^#[0-9a-f]{6}$/);
    expect(groupColours([13, 12], groups)[1].colour).toBe(chosen[0].colour);
    expect(groupColours([13], groups)[0].colour).not.toContain('url');
  });

  it('draws members in their group\'s colour and the rest dimmed; an entity in two groups takes the first chosen', () => {
    const chosen = groupColours([11, 12], groups);
    const groupOf = memberGroups(chosen, new Map([[11, [1, 2]], [12, [2, 3]]]));
    expect([...groupOf]).toEqual([[1, 11], [2, 11], [3, 12]]);
    const colouring = { groups: chosen };
    const drawn = (id: number) => colourOf(colouring, { properties: { value: null, colour: '#123456' }, state: groupOf.has(id) ? { [GROUP_STATE]: groupOf.get(id) } : {} });
    expect(drawn(2)).toBe('#fadb14');
    expect(drawn(3)).toBe(chosen[1].colour);
    expect(drawn(4)).toBe(DIMMED); // even with a colour of its own
  });
});

describe('colouring rules', () => {
  const rule = (operator: ColourRule['operator'], value: ColourRule['value'], colour: string, to?: number): ColourRule => ({ operator, value, colour, ...(to === undefined ? {} : { to }) });
  const rules = [
    rule('>', 30, '#cf1322'),
    rule('between', 10, '#d46b08', 20),
    rule('==', true, '#389e0d'),
    rule('==', 'broken', '#531dab'),
    rule('!=', 5, '#0958d9'),
  ];
  const colouring: MapColouring = { groups: [], rules: { rules, otherwise: '#595959' } };
  const valued = (value: unknown, own?: string) => colourOf(colouring, { properties: own ? { value, colour: own } : { value } });

  it('colours by the first matching rule', () => {
    expect(valued(31)).toBe('#cf1322');
    expect(valued(30)).toBe('#0958d9'); // not > 30, not in 10–20, but != 5
    expect(valued(10)).toBe('#d46b08');
    expect(valued(20)).toBe('#d46b08');
    expect(valued(true)).toBe('#389e0d');
    expect(valued('broken')).toBe('#531dab');
  });

  it('never fails on a value of another type, and gives other values the default or the entity\'s own colour', () => {
    expect(valued('31')).toBe('#0958d9'); // text is not a number: only != matches
    expect(valued(5)).toBe('#595959');
    expect(valued(null)).toBe('#595959'); // no value differs from nothing
    expect(valued(false)).toBe('#0958d9');
    expect(valued(null, '#1677ff')).toBe('#1677ff');
    expect(valued(40, '#1677ff')).toBe('#cf1322'); // a matching rule wins over the own colour
  });

  it('without rules the usual colours stay; groups, when chosen, win over rules', () => {
    expect(colourOf({ groups: [], rules: { rules: [], otherwise: '#595959' } }, { properties: { value: true } })).toBe('#2e9d57');
    expect(colourOf({ groups: [], rules: { rules: [], otherwise: '#595959' } }, { properties: { value: null, colour: '#1677ff' } })).toBe('#1677ff');
    const grouped = { ...colouring, groups: [{ id: 11, colour: '#fadb14' }] };
    expect(colourOf(grouped, { properties: { value: 31 } })).toBe(DIMMED);
    expect(colourOf(grouped, { properties: { value: 31 }, state: { [GROUP_STATE]: 11 } })).toBe('#fadb14');
  });
});
