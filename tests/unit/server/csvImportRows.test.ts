// Telemetry import rows read against a device's CSV header definition
// (server/telemetry/csvImportRows.ts): timestamps, typed cells, formula-like cells, refusals.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../src/schemas/bounds.ts';
import type { CsvColumn } from '../../../server/db/deviceQueries.ts';
import { readImportRows, unknownColumns } from '../../../server/telemetry/csvImportRows.ts';

const NOW = Date.UTC(2026, 10, 1, 10, 0, 0);
const TS = Date.UTC(2026, 10, 1, 9, 0, 0);
const ISO = '2026-11-01T09:00:00Z';
const DAY = 24 * 3600 * 1000;

// As entity_csv_header_definition gives them: ts first, then the device's telemetry keys.
const COLUMNS: CsvColumn[] = [
  { name: 'ts', type: 'timestamp' },
  { name: 'temperature', type: 'number' },
  { name: 'on', type: 'boolean' },
  { name: 'label', type: 'string' },
  { name: 'config', type: 'json' },
];

type Row = Record<string, string | number | boolean>;
const read = (rows: Row[], firstRow = 1, columns = COLUMNS) => readImportRows(rows, columns, firstRow, NOW);
/** The one row's values, or its refusal. */
const one = (row: Row) => {
  const { valid, refused } = read([row]);
  return refused.length ? { refused: refused[0] } : { ts: valid[0].ts, values: valid[0].values };
};

describe('readImportRows: timestamps', () => {
  it('reads ISO 8601 with Z, with an offset with or without a colon, a space for T, and fractions', () => {
    expect(one({ ts: ISO, temperature: '1' })).toEqual({ ts: TS, values: [['temperature', 1]] });
    expect(one({ ts: '2026-11-01T11:00:00+02:00' }).ts).toBe(TS);
    expect(one({ ts: '2026-11-01T11:00:00+0200' }).ts).toBe(TS);
    expect(one({ ts: '2026-11-01T04:00:00-05:00' }).ts).toBe(TS);
    expect(one({ ts: '2026-11-01 09:00:00Z' }).ts).toBe(TS);
    expect(one({ ts: '2026-11-01T09:00Z' }).ts).toBe(TS);
    expect(one({ ts: '2026-11-01T09:00:00.250Z' }).ts).toBe(TS + 250);
    expect(one({ ts: '2026-11-01T09:00:00.123456Z' }).ts).toBe(TS + 123);
    expect(one({ ts: `  ${ISO}  ` }).ts).toBe(TS);
  });

  it('reads milliseconds since 1970, as a number or as 10 to 13 digits', () => {
    expect(one({ ts: TS }).ts).toBe(TS);
    expect(one({ ts: String(TS) }).ts).toBe(TS);
    expect(one({ ts: ` ${TS} ` }).ts).toBe(TS);
  });

  it('requires ts', () => {
    const refused = { row: 1, column: 'ts', message: 'ts is required' };
    expect(read([{ temperature: '1' }])).toEqual({ valid: [], refused: [refused] });
    expect(read([{ ts: '', temperature: '1' }])).toEqual({ valid: [], refused: [refused] });
  });

  it('refuses what is not a date and time', () => {
    const message = 'ts must be a date and time (ISO 8601, e.g. 2026-11-01T10:00:00Z) or milliseconds since 1970';
    for (const ts of ['yesterday', '2026-11-01', '01/11/2026 09:00', '11:00', '=NOW()', '2026-11-01T09:00:00.1234567Z', '12345678901234', '123456789', true, '   ']) {
      expect(read([{ ts }]), String(ts)).toEqual({ valid: [], refused: [{ row: 1, column: 'ts', message }] });
    }
  });

  it('refuses a date that does not exist', () => {
    const message = 'ts must be a date and time (ISO 8601) or milliseconds since 1970';
    for (const ts of ['2026-13-01T09:00:00Z', '2026-11-01T25:00:00Z', '2026-11-01T09:60:00Z']) {
      expect(read([{ ts }]), ts).toEqual({ valid: [], refused: [{ row: 1, column: 'ts', message }] });
    }
  });

  it('reads a time without an offset as UTC, whatever the server\'s time zone', () => {
    expect(read([{ ts: '2026-11-01T10:00', temperature: '1' }]).valid[0].ts).toBe(Date.UTC(2026, 10, 1, 10));
    expect(read([{ ts: '2026-11-01 10:00:00+02:00', temperature: '1' }]).valid[0].ts).toBe(Date.UTC(2026, 10, 1, 8));
  });

  it('refuses a day of the month that does not exist (February 30, April 31)', () => {
    for (const ts of ['2026-02-30T10:00:00Z', '2026-04-31T10:00:00Z']) {
      expect(read([{ ts, temperature: '1' }]), ts).toEqual({ valid: [], refused: [{ row: 1, column: 'ts', message: expect.stringMatching(/^ts /) }] });
    }
  });

  it('refuses a number of milliseconds that is not whole', () => {
    expect(read([{ ts: TS + 0.5 }])).toEqual({
      valid: [], refused: [{ row: 1, column: 'ts', message: 'ts must be a date and time (ISO 8601) or milliseconds since 1970' }],
    });
  });

  it('refuses a time before 2000 (seconds instead of milliseconds too) and keeps 2000-01-01T00:00:00Z', () => {
    const before = { valid: [], refused: [{ row: 1, column: 'ts', message: 'ts must not be before the year 2000' }] };
    expect(read([{ ts: '1999-12-31T23:59:59Z' }])).toEqual(before);
    expect(read([{ ts: Date.UTC(2000, 0, 1) - 1 }])).toEqual(before);
    expect(read([{ ts: String(TS / 1000) }])).toEqual(before);
    expect(one({ ts: '2000-01-01T00:00:00Z' }).ts).toBe(Date.UTC(2000, 0, 1));
  });

  it('refuses a time more than a day ahead and keeps one exactly a day ahead', () => {
    expect(read([{ ts: NOW + DAY + 1 }])).toEqual({ valid: [], refused: [{ row: 1, column: 'ts', message: 'ts must not be more than a day ahead' }] });
    expect(one({ ts: NOW + DAY }).ts).toBe(NOW + DAY);
  });
});

describe('readImportRows: cells', () => {
  it('reads numbers written as text or given as numbers', () => {
    const cases: [string | number, number][] = [
      ['21.5', 21.5], ['-3', -3], ['+5', 5], [' 42 ', 42], ['.5', 0.5], ['5.', 5], ['1e3', 1000], ['-2.5E-2', -0.025], ['0', 0], [7, 7], [-0.25, -0.25],
    ];
    for (const [cell, value] of cases) expect(one({ ts: TS, temperature: cell }), String(cell)).toEqual({ ts: TS, values: [['temperature', value]] });
  });

  it('refuses formula-like and other non-numbers in a number column', () => {
    for (const cell of ['=1+2', '@SUM(A1)', '+', '-', '=-3', '1+2', '-3-', '0x10', '1,5', 'NaN', 'Infinity', '-Infinity', '1e999', 'abc', true]) {
      expect(read([{ ts: TS, temperature: cell }]), String(cell)).toEqual({
        valid: [], refused: [{ row: 1, column: 'temperature', message: 'temperature must be a number' }],
      });
    }
  });

  it('reads booleans: true/false in any case, 1/0, and real booleans', () => {
    const cases: [string | number | boolean, boolean][] = [['true', true], ['TRUE', true], [' True ', true], ['1', true], [1, true], [true, true],
      ['false', false], ['False', false], ['0', false], [0, false], [false, false]];
    for (const [cell, value] of cases) expect(one({ ts: TS, on: cell }), String(cell)).toEqual({ ts: TS, values: [['on', value]] });
  });

  it('refuses other booleans', () => {
    for (const cell of ['yes', 'no', 'on', '2', 2, 't', '=TRUE()']) {
      expect(read([{ ts: TS, on: cell }]), String(cell)).toEqual({ valid: [], refused: [{ row: 1, column: 'on', message: 'on must be true or false' }] });
    }
  });

  it('keeps string cells verbatim, formula-like ones included', () => {
    for (const cell of ['Lamp 4', '=1+2', '+5', '-3', '@SUM(A1)', ' padded ', 'null']) {
      expect(one({ ts: TS, label: cell }), cell).toEqual({ ts: TS, values: [['label', cell]] });
    }
    expect(one({ ts: TS, label: 42 })).toEqual({ ts: TS, values: [['label', '42']] });
    expect(one({ ts: TS, label: false })).toEqual({ ts: TS, values: [['label', 'false']] });
  });

  it('reads JSON objects and arrays in a json column', () => {
    expect(one({ ts: TS, config: '{"mode":"eco","levels":[1,2]}' })).toEqual({ ts: TS, values: [['config', { mode: 'eco', levels: [1, 2] }]] });
    expect(one({ ts: TS, config: ' [1, "a"] ' })).toEqual({ ts: TS, values: [['config', [1, 'a']]] });
  });

  it('refuses JSON that is not an object or array, and text that is not JSON', () => {
    for (const cell of ['1', '"text"', 'true', 'null', '{mode: 1}', '=1+2', '{"a":', 5, false]) {
      expect(read([{ ts: TS, config: cell }]), String(cell)).toEqual({
        valid: [], refused: [{ row: 1, column: 'config', message: 'config must be a JSON object or array' }],
      });
    }
  });

  it('skips empty and missing cells; a row of only ts is valid with no values', () => {
    expect(read([{ ts: TS, temperature: '', on: 'true' }, { ts: TS + 1 }])).toEqual({
      valid: [{ ts: TS, values: [['on', true]] }, { ts: TS + 1, values: [] }],
      refused: [],
    });
  });

  it('keeps the columns in the order of the definition', () => {
    expect(one({ config: '{}', label: 'x', on: '0', temperature: '1', ts: ISO })).toEqual({
      ts: TS, values: [['temperature', 1], ['on', false], ['label', 'x'], ['config', {}]],
    });
  });

  it('names the first bad column of the definition and refuses the row whole', () => {
    expect(read([{ ts: TS, temperature: '21', on: 'maybe', config: 'nope' }])).toEqual({
      valid: [], refused: [{ row: 1, column: 'on', message: 'on must be true or false' }],
    });
  });

  it('checks ts before the cells', () => {
    expect(read([{ ts: 'soon', temperature: '=1' }]).refused).toEqual([
      { row: 1, column: 'ts', message: 'ts must be a date and time (ISO 8601, e.g. 2026-11-01T10:00:00Z) or milliseconds since 1970' },
    ]);
  });

  it('numbers rows from firstRow and keeps the valid rows around a refused one', () => {
    const rows: Row[] = [{ ts: TS, temperature: '1' }, { ts: TS + 1, temperature: '=1+2' }, { ts: TS + 2, temperature: '3' }, { temperature: '4' }];
    expect(read(rows, 501)).toEqual({
      valid: [{ ts: TS, values: [['temperature', 1]] }, { ts: TS + 2, values: [['temperature', 3]] }],
      refused: [
        { row: 502, column: 'temperature', message: 'temperature must be a number' },
        { row: 504, column: 'ts', message: 'ts is required' },
      ],
    });
  });

  it('ignores cells of columns the definition lacks (unknownColumns refuses them first)', () => {
    expect(one({ ts: TS, temperature: '1', extra: 'x' })).toEqual({ ts: TS, values: [['temperature', 1]] });
  });

  it('refuses a json cell nested deeper than MAX_JSON_DEPTH, however deep, and keeps one at the bound', () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const tooDeep = { row: 1, column: 'config', message: `config: the value is nested more than ${MAX_JSON_DEPTH} levels deep` };
    expect(read([{ ts: TS, config: nested(MAX_JSON_DEPTH + 1) }])).toEqual({ valid: [], refused: [tooDeep] });
    expect(read([{ ts: TS, config: nested(30_000) }])).toEqual({ valid: [], refused: [tooDeep] }); // a 60,000-character cell
    expect(read([{ ts: TS, config: nested(MAX_JSON_DEPTH) }]).valid).toHaveLength(1);
  });

  it('refuses a row with a NUL character in a string or json cell', () => {
    const { valid, refused } = read([{ ts: TS, label: 'a\0b' }, { ts: TS + 1, config: '{"a":"x\\u0000"}' }, { ts: TS + 2, label: 'ok' }]);
    expect(valid).toEqual([{ ts: TS + 2, values: [['label', 'ok']] }]);
    expect(refused).toEqual([
      { row: 1, column: 'label', message: expect.any(String) },
      { row: 2, column: 'config', message: expect.any(String) },
    ]);
  });
});

describe('unknownColumns', () => {
  it('lists each column the definition lacks once, in the order first seen', () => {
    const rows = [{ ts: 1, temperature: 2, humidity: 3 }, { ts: 1, pressure: 4, humidity: 5 }, { Temperature: 6 }];
    expect(unknownColumns(rows, COLUMNS)).toEqual(['humidity', 'pressure', 'Temperature']);
  });

  it('is empty when every column is known or there are no rows', () => {
    expect(unknownColumns([{ ts: 1, temperature: 2, on: 3, label: 4, config: 5 }, {}], COLUMNS)).toEqual([]);
    expect(unknownColumns([], COLUMNS)).toEqual([]);
  });

  it('treats ts like any other column: unknown when the definition lacks it', () => {
    expect(unknownColumns([{ ts: 1, temperature: 2 }], [{ name: 'temperature', type: 'number' }])).toEqual(['ts']);
  });
});
