// A value's JSON made once and carried as it is (server/resources/preparedJson.ts): a record's JSON
// is JSON.stringify's, whatever its fields hold, and a prepared field's text is the one made once.
import { describe, expect, it } from 'vitest';
import { preparedJson, recordJson } from '../../../server/resources/preparedJson.ts';

const awkward = {
  id: 7,
  name: 'Quote " backslash \\ line\n end \u2028 \u0000 😀',
  nothing: null,
  missing: undefined,
  fn: () => 1,
  at: new Date(Date.UTC(2026, 10, 28, 12)),
  nested: { list: [1, 'two', null, { deep: [true] }], 'key "quoted"': 1 },
  big: 1e21,
  small: -0,
};

describe('prepared JSON', () => {
  it('makes a record exactly as JSON.stringify does, with or without a prepared field', () => {
    expect(recordJson(awkward)).toBe(JSON.stringify(awkward));
    const data = { series: [{ points: [[1, 2.5], [2, null]] }], unit: '°C' };
    preparedJson(data);
    const record = { ...awkward, data };
    expect(recordJson(record)).toBe(JSON.stringify(record));
    expect(JSON.parse(recordJson(record))).toEqual(JSON.parse(JSON.stringify(record)));
  });

  it('carries the text made once: the value is not made into JSON again', () => {
    const data = { value: 1 };
    expect(preparedJson(data)).toBe('{"value":1}');
    data.value = 2; // never done to a shared answer: here it shows which text is carried
    expect(preparedJson(data)).toBe('{"value":1}');
    expect(recordJson({ id: 1, data })).toBe('{"id":1,"data":{"value":1}}');
  });
});
