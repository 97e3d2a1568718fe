// The JSON nesting bound (server/jsonDepth.ts): how deep arrays and objects nest, measured without
// recursion, and which member of a value goes too deep.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../src/schemas/bounds.ts';
import { jsonTooDeep, memberNestedTooDeep } from '../../../server/jsonDepth.ts';

/** `levels` arrays inside each other, parsed from text as a client's would be. */
const nestedArrays = (levels: number) => JSON.parse('['.repeat(levels) + ']'.repeat(levels)) as unknown;
/** `levels` objects {"a": …} inside each other around 1. */
const nestedObjects = (levels: number) => JSON.parse('{"a":'.repeat(levels) + '1' + '}'.repeat(levels)) as unknown;
/** Arrays and objects by turns: [{"a": [{"a": …}]}]. */
const nestedMixed = (levels: number) => {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = level % 2 ? [value] : { a: value };
  return value;
};

describe('memberNestedTooDeep', () => {
  it('lets values up to the bound pass: arrays, objects, both by turns', () => {
    for (const make of [nestedArrays, nestedObjects, nestedMixed]) {
      expect(memberNestedTooDeep(make(1))).toBeUndefined();
      expect(memberNestedTooDeep(make(MAX_JSON_DEPTH - 1))).toBeUndefined();
      expect(memberNestedTooDeep(make(MAX_JSON_DEPTH))).toBeUndefined();
    }
  });

  it('names the member that nests one level past the bound', () => {
    expect(memberNestedTooDeep(nestedArrays(MAX_JSON_DEPTH + 1))).toBe('0');
    expect(memberNestedTooDeep(nestedObjects(MAX_JSON_DEPTH + 1))).toBe('a');
    expect(memberNestedTooDeep(nestedMixed(MAX_JSON_DEPTH + 1))).toBeDefined();
    expect(memberNestedTooDeep({ name: 'ok', attributes: nestedObjects(MAX_JSON_DEPTH), geom: null })).toBe('attributes');
    expect(memberNestedTooDeep({ fine: [[1]], deep: [nestedArrays(MAX_JSON_DEPTH)] })).toBe('deep');
  });

  it('counts the value itself as the first level; scalars nest nothing', () => {
    for (const scalar of [null, 1, 'text', true, undefined]) expect(memberNestedTooDeep(scalar)).toBeUndefined();
    expect(memberNestedTooDeep([], 1)).toBeUndefined();
    expect(memberNestedTooDeep([[]], 1)).toBe('0');
    expect(memberNestedTooDeep({ a: [] }, 2)).toBeUndefined();
    expect(memberNestedTooDeep({ a: [[]] }, 2)).toBe('a');
    expect(memberNestedTooDeep({}, 0)).toBe('');
    expect(memberNestedTooDeep(1, 0)).toBeUndefined();
  });

  it('lets wide but shallow values pass, however wide', () => {
    const wide = { rows: Array.from({ length: 50_000 }, (_, i) => ({ id: i, tags: [i, { x: [i] }] })), ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, [i]])) };
    expect(memberNestedTooDeep(wide)).toBeUndefined();
    expect(memberNestedTooDeep(wide, 6)).toBeUndefined(); // wide → rows → a row → tags → {x} → x
    expect(memberNestedTooDeep(wide, 5)).toBe('rows');
  });

  it('finds a deep branch among many shallow ones', () => {
    const value = { list: [...Array.from({ length: 1000 }, () => [1]), nestedArrays(MAX_JSON_DEPTH)] };
    expect(memberNestedTooDeep(value)).toBe('list');
  });

  it('is iterative: a million levels answer at once instead of overflowing the stack', () => {
    const deep = nestedArrays(1_000_000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError); // what a recursive walk does with it
    expect(memberNestedTooDeep(deep)).toBe('0');
    expect(memberNestedTooDeep(nestedObjects(1_000_000))).toBe('a');
  });
});

describe('jsonTooDeep', () => {
  it('is a 400 JSON_TOO_DEEP naming the field and the bound', () => {
    const error = jsonTooDeep('attributes');
    expect(error.statusCode).toBe(400);
    expect(error.body).toEqual({ errors: [{
      code: 'JSON_TOO_DEEP', field: 'attributes', message: `attributes is nested more than ${MAX_JSON_DEPTH} levels deep`, params: { limit: MAX_JSON_DEPTH },
    }] });
  });
});
