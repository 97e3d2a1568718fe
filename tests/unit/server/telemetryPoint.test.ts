// How a telemetry value maps onto the table's typed columns and back
// (server/telemetry/telemetryPoint.ts).
import { describe, expect, it } from 'vitest';
import { pointRow, storedValue, type PointRow, type StoredValueColumns, type TelemetryValue } from '../../../server/telemetry/telemetryPoint.ts';

const TENANT = '6f1c1f9e-8a52-4d3c-9a57-1f0e2b9c3d41';
const TS = Date.UTC(2026, 10, 1, 9, 0, 0);
const point = (value: TelemetryValue) => ({ tenantId: TENANT, entityId: 42, key: 'temperature', ts: TS, value });
const base = { t: TENANT, e: 42, k: 'temperature', ms: TS };

/** The columns a row stores, as the database hands them back. */
const columns = (row: PointRow): StoredValueColumns => ({ value_num: row.n, value_text: row.s, value_bool: row.b, value_json: row.j });

describe('pointRow', () => {
  it('puts a number in n only', () => {
    expect(pointRow(point(21.5))).toStrictEqual({ ...base, n: 21.5, s: null, b: null, j: null });
    expect(pointRow(point(0))).toStrictEqual({ ...base, n: 0, s: null, b: null, j: null });
    expect(pointRow(point(-3))).toStrictEqual({ ...base, n: -3, s: null, b: null, j: null });
  });

  it('puts a boolean in b and as 1 or 0 in n, so that it aggregates', () => {
    expect(pointRow(point(true))).toStrictEqual({ ...base, n: 1, s: null, b: true, j: null });
    expect(pointRow(point(false))).toStrictEqual({ ...base, n: 0, s: null, b: false, j: null });
  });

  it('puts a string in s only, a numeric-looking or empty one too', () => {
    expect(pointRow(point('on'))).toStrictEqual({ ...base, n: null, s: 'on', b: null, j: null });
    expect(pointRow(point('21.5'))).toStrictEqual({ ...base, n: null, s: '21.5', b: null, j: null });
    expect(pointRow(point(''))).toStrictEqual({ ...base, n: null, s: '', b: null, j: null });
  });

  it('puts an object or an array in j only', () => {
    const object = { mode: 'eco', levels: [1, 2], nested: { on: true } };
    expect(pointRow(point(object))).toStrictEqual({ ...base, n: null, s: null, b: null, j: object });
    expect(pointRow(point([1, 'a']))).toStrictEqual({ ...base, n: null, s: null, b: null, j: [1, 'a'] });
    expect(pointRow(point([]))).toStrictEqual({ ...base, n: null, s: null, b: null, j: [] });
    expect(pointRow(point({}))).toStrictEqual({ ...base, n: null, s: null, b: null, j: {} });
  });

  it('copies tenant, entity, key and time as they are', () => {
    expect(pointRow({ tenantId: 't', entityId: 7, key: 'k.with spaces', ts: 946684800000, value: 1 }))
      .toMatchObject({ t: 't', e: 7, k: 'k.with spaces', ms: 946684800000 });
  });
});

describe('storedValue', () => {
  it('gives back what pointRow stored, for every type', () => {
    const values: TelemetryValue[] = [21.5, 0, -3, true, false, 'on', '', '21.5', { mode: 'eco', levels: [1, 2] }, [1, 'a'], [], {}];
    for (const value of values) expect(storedValue(columns(pointRow(point(value)))), JSON.stringify(value)).toStrictEqual(value);
  });

  it('prefers the boolean over its 1/0 number', () => {
    expect(storedValue({ value_num: 1, value_text: null, value_bool: true, value_json: null })).toBe(true);
    expect(storedValue({ value_num: 0, value_text: null, value_bool: false, value_json: null })).toBe(false);
  });

  it('reads a number the driver hands back as text as a number', () => {
    expect(storedValue({ value_num: '21.5' as unknown as number, value_text: null, value_bool: null, value_json: null })).toBe(21.5);
    expect(storedValue({ value_num: 0, value_text: null, value_bool: null, value_json: null })).toBe(0);
  });

  it('gives the JSON value before a number or text', () => {
    expect(storedValue({ value_num: 5, value_text: 'x', value_bool: null, value_json: { a: 1 } })).toStrictEqual({ a: 1 });
  });

  it('gives the text when nothing else is set, and null when nothing is', () => {
    expect(storedValue({ value_num: null, value_text: 'on', value_bool: null, value_json: null })).toBe('on');
    expect(storedValue({ value_num: null, value_text: '', value_bool: null, value_json: null })).toBe('');
    expect(storedValue({ value_num: null, value_text: null, value_bool: null, value_json: null })).toBeNull();
  });
});
