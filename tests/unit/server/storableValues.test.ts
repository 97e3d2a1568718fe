// What every compiled schema refuses whatever it says (src/schemas/validation.ts): non-finite
// numbers and U+0000 in a string or a key, each with its path and the words clients are given.
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../../src/schemas/ajvInstance.ts';
import { NO_NUL } from '../../../src/schemas/bounds.ts';
import { name } from '../../../src/schemas/fields.ts';
import { refusedValueOf } from '../../../src/schemas/validation.ts';

describe('refusedValueOf', () => {
  it('finds NUL in a string or a key, and non-finite numbers, at their JSON pointer', () => {
    expect(refusedValueOf({ a: [1, 'x', { b: 'c\u0000' }] })).toEqual({ path: '/a/2/b', problem: 'nul' });
    expect(refusedValueOf({ attributes: { 'k\u0000': 1 } })).toEqual({ path: '/attributes/k\u0000', problem: 'nul' });
    expect(refusedValueOf({ n: Infinity })).toEqual({ path: '/n', problem: 'not-finite' });
    expect(refusedValueOf({ a: ['fine', 1.5, null, { b: true }] })).toBeUndefined();
  });
});

describe('a compiled schema', () => {
  it('refuses NUL in a field whose own schema would take it, as a pattern failure clients know', () => {
    const validate = createAjv().compile({ type: 'object', properties: { free: { type: 'string', maxLength: 10 } } });
    expect(validate({ free: 'ok' })).toBe(true);
    expect(validate({ free: 'a\u0000' })).toBe(false);
    expect(validate.errors).toEqual([expect.objectContaining({ instancePath: '/free', keyword: 'pattern', params: { pattern: NO_NUL } })]);
  });

  it('refuses a name that is NUL and nothing else (the name pattern no longer takes it as its one non-space character)', () => {
    const validate = createAjv().compile(name);
    expect(validate('\u0000')).toBe(false);
    expect(new RegExp(name.pattern, 'u').test('\u0000')).toBe(false);
    expect(validate('Lamp 1')).toBe(true);
  });
});
