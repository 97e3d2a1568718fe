// The ThingsBoard device payload reader (server/telemetry/devicePayload.ts): what it stores, what it
// refuses and why. Pure, so every rule is checked here with a fixed clock.
import { describe, expect, it } from 'vitest';
import {
  attributeValues, gatewayAttributes, gatewayDevice, gatewayTelemetry, parseJson, PAYLOAD_LIMITS, telemetryEntries,
} from '../../../server/telemetry/devicePayload.ts';
import { MAX_JSON_DEPTH } from '../../../src/schemas/bounds.ts';

const NOW = Date.UTC(2026, 10, 1, 10, 0, 0);
const TS = Date.UTC(2026, 10, 1, 9, 0, 0);
const DAY = 24 * 3600 * 1000;

/** `count` keys k0…k{count-1}, all numbers. */
const manyKeys = (count: number, prefix = 'k') => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, i]));

const SHAPE = { reason: 'bad_shape', detail: 'telemetry must be an object of values, {"ts": …, "values": {…}}, or an array of these' };

describe('parseJson', () => {
  it('reads a string or a UTF-8 buffer', () => {
    expect(parseJson('{"temperature": 21.5}')).toEqual({ value: { temperature: 21.5 }, problems: [] });
    expect(parseJson(Buffer.from('{"name": "Čerpadlo"}', 'utf8'))).toEqual({ value: { name: 'Čerpadlo' }, problems: [] });
    expect(parseJson('[1, "a", true]')).toEqual({ value: [1, 'a', true], problems: [] });
  });

  it('refuses what is not JSON with malformed_json and no value', () => {
    const refused = { problems: [{ reason: 'malformed_json', detail: 'the message is not valid JSON' }] };
    for (const text of ['{"a":', 'NaN', '', '{a: 1}', "{'a': 1}", '{"a": 1,}', 'undefined']) {
      const parsed = parseJson(text);
      expect(parsed, text).toEqual(refused);
      expect(parsed.value, text).toBeUndefined();
    }
    expect(parseJson(Buffer.from('{"a":'))).toEqual(refused);
  });

  it('refuses a message nested deeper than MAX_JSON_DEPTH with too_deep and no value, before any rule walks it', () => {
    const refused = { problems: [{ reason: 'too_deep', detail: `the message is nested more than ${MAX_JSON_DEPTH} levels deep` }] };
    const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const objects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    expect(parseJson(`{"x":${arrays(MAX_JSON_DEPTH)}}`)).toEqual(refused);
    expect(parseJson(Buffer.from(`{"x":${objects(10_000)}}`))).toEqual(refused);
    expect(parseJson(arrays(100_000))).toEqual(refused);
    expect(parseJson(`{"x":${arrays(MAX_JSON_DEPTH - 1)}}`).problems).toEqual([]);
  });
});

describe('telemetryEntries', () => {
  it('reads a plain object of values at the current time', () => {
    expect(telemetryEntries({ temperature: 21.5 }, NOW)).toEqual({ value: [{ ts: NOW, values: [['temperature', 21.5]] }], problems: [] });
  });

  it('reads {"ts", "values"} at its own time', () => {
    expect(telemetryEntries({ ts: TS, values: { temperature: 21.5, humidity: 40 } }, NOW)).toEqual({
      value: [{ ts: TS, values: [['temperature', 21.5], ['humidity', 40]] }],
      problems: [],
    });
  });

  it('reads an array of either form, in order', () => {
    const json = [{ ts: TS, values: { a: 1 } }, { b: 2 }, { ts: TS + 1000, values: { a: 3 } }];
    expect(telemetryEntries(json, NOW)).toEqual({
      value: [{ ts: TS, values: [['a', 1]] }, { ts: NOW, values: [['b', 2]] }, { ts: TS + 1000, values: [['a', 3]] }],
      problems: [],
    });
  });

  it('keeps numbers, strings, booleans, JSON objects and arrays as they are', () => {
    const values = { n: -3.25, zero: 0, s: 'on', empty: '', t: true, f: false, o: { a: [1, { b: 'c' }] }, list: [1, 2, 3] };
    expect(telemetryEntries({ ts: TS, values }, NOW)).toEqual({ value: [{ ts: TS, values: Object.entries(values) }], problems: [] });
  });

  it('treats a "ts" key without "values" as an ordinary key at the current time', () => {
    expect(telemetryEntries({ ts: TS, temperature: 1 }, NOW).value).toEqual([{ ts: NOW, values: [['ts', TS], ['temperature', 1]] }]);
  });

  it('drops a value that is not a finite number and keeps the keys next to it', () => {
    const json = JSON.parse('{"a":1e999,"b":-1e999,"c":2}') as unknown;
    expect(telemetryEntries(json, NOW)).toEqual({
      value: [{ ts: NOW, values: [['c', 2]] }],
      problems: [
        { reason: 'bad_value', detail: 'a: the number is not finite' },
        { reason: 'bad_value', detail: 'b: the number is not finite' },
      ],
    });
    expect(telemetryEntries({ x: Number.NaN }, NOW).problems).toEqual([{ reason: 'bad_value', detail: 'x: the number is not finite' }]);
  });

  it('drops a null value', () => {
    expect(telemetryEntries({ a: null, b: 1 }, NOW)).toEqual({
      value: [{ ts: NOW, values: [['b', 1]] }],
      problems: [{ reason: 'bad_value', detail: 'a: the value is null' }],
    });
  });

  it('names a bad value by the first 40 characters of its key', () => {
    const key = 'k'.repeat(60);
    expect(telemetryEntries({ [key]: null }, NOW).problems).toEqual([{ reason: 'bad_value', detail: `${'k'.repeat(40)}: the value is null` }]);
  });

  it('refuses an empty key and a key longer than 255 characters, keeping the good ones', () => {
    expect(telemetryEntries({ '': 1, ['k'.repeat(256)]: 2, ['k'.repeat(255)]: 3 }, NOW)).toEqual({
      value: [{ ts: NOW, values: [['k'.repeat(255), 3]] }],
      problems: [
        { reason: 'bad_key', detail: 'a key is empty' },
        { reason: 'bad_key', detail: 'a key is longer than 255 characters' },
      ],
    });
  });

  it('refuses a NUL in a key', () => {
    expect(telemetryEntries({ 'te\0mp': 1, ok: 2 }, NOW)).toEqual({
      value: [{ ts: NOW, values: [['ok', 2]] }],
      problems: [{ reason: 'bad_key', detail: 'a key contains a NUL character' }],
    });
  });

  it('refuses a NUL in a string value or inside a JSON value', () => {
    expect(telemetryEntries({ s: 'a\0b', o: { deep: ['x\0'] }, ok: 'fine' }, NOW)).toEqual({
      value: [{ ts: NOW, values: [['ok', 'fine']] }],
      problems: [
        { reason: 'bad_value', detail: 's: the value contains a NUL character' },
        { reason: 'bad_value', detail: 'o: the value contains a NUL character' },
      ],
    });
    // As it arrives over the wire: a JSON escape.
    expect(telemetryEntries(parseJson('{"s": "a\\u0000b"}').value, NOW).problems)
      .toEqual([{ reason: 'bad_value', detail: 's: the value contains a NUL character' }]);
  });

  it('keeps a value whose text merely contains a backslash followed by u0000 (no NUL)', () => {
    const text = String.raw`C:\u0000\log`; // 12 characters, no NUL
    expect(text.includes('\0')).toBe(false);
    expect(telemetryEntries({ path: text, o: { path: text } }, NOW)).toEqual({
      value: [{ ts: NOW, values: [['path', text], ['o', { path: text }]] }],
      problems: [],
    });
  });

  it('refuses a value larger than 64 kB (UTF-8 bytes, strings and serialised JSON)', () => {
    const limit = PAYLOAD_LIMITS.valueBytes;
    expect(limit).toBe(65_536);
    const fits = 'x'.repeat(limit);
    const { value, problems } = telemetryEntries({ fits, big: 'x'.repeat(limit + 1), wide: 'é'.repeat(limit / 2 + 1), obj: { s: 'x'.repeat(limit) } }, NOW);
    expect(value).toEqual([{ ts: NOW, values: [['fits', fits]] }]);
    expect(problems).toEqual([
      { reason: 'bad_value', detail: 'big: the value is larger than 64 kB' },
      { reason: 'bad_value', detail: 'wide: the value is larger than 64 kB' },
      { reason: 'bad_value', detail: 'obj: the value is larger than 64 kB' },
    ]);
  });

  it('refuses a timestamp before the year 2000 and keeps one at 2000-01-01T00:00:00Z', () => {
    const earliest = Date.UTC(2000, 0, 1);
    expect(PAYLOAD_LIMITS.earliestTs).toBe(earliest);
    expect(telemetryEntries([{ ts: earliest - 1, values: { a: 1 } }, { ts: earliest, values: { a: 2 } }], NOW)).toEqual({
      value: [{ ts: earliest, values: [['a', 2]] }],
      problems: [{ reason: 'bad_timestamp', detail: 'ts is before the year 2000' }],
    });
    // Seconds instead of milliseconds: 1970.
    expect(telemetryEntries({ ts: 1_793_527_200, values: { a: 1 } }, NOW).problems)
      .toEqual([{ reason: 'bad_timestamp', detail: 'ts is before the year 2000' }]);
  });

  it('refuses a timestamp more than a day ahead and keeps one exactly a day ahead', () => {
    expect(telemetryEntries([{ ts: NOW + DAY + 1, values: { a: 1 } }, { ts: NOW + DAY, values: { a: 2 } }], NOW)).toEqual({
      value: [{ ts: NOW + DAY, values: [['a', 2]] }],
      problems: [{ reason: 'bad_timestamp', detail: 'ts is more than a day ahead' }],
    });
  });

  it('refuses a timestamp that is not a whole number of milliseconds', () => {
    const detail = 'ts must be milliseconds since 1970 as a whole number';
    for (const ts of [TS + 0.5, String(TS), '2026-11-01T09:00:00Z', null, true, Number.NaN]) {
      expect(telemetryEntries({ ts, values: { a: 1 } }, NOW), String(ts)).toEqual({ value: [], problems: [{ reason: 'bad_timestamp', detail }] });
    }
  });

  it('drops an entry with a bad timestamp whole and keeps the other entries', () => {
    const json = [{ ts: TS, values: { a: 1 } }, { ts: 5, values: { a: 2, b: 3 } }, { c: 4 }];
    expect(telemetryEntries(json, NOW)).toEqual({
      value: [{ ts: TS, values: [['a', 1]] }, { ts: NOW, values: [['c', 4]] }],
      problems: [{ reason: 'bad_timestamp', detail: 'ts is before the year 2000' }],
    });
  });

  it('leaves out an entry none of whose keys could be kept', () => {
    expect(telemetryEntries([{ ts: TS, values: { a: null } }, { ts: TS + 1, values: {} }, { b: 1 }], NOW)).toEqual({
      value: [{ ts: NOW, values: [['b', 1]] }],
      problems: [{ reason: 'bad_value', detail: 'a: the value is null' }],
    });
    expect(telemetryEntries({}, NOW)).toEqual({ value: [], problems: [] });
  });

  it('accepts 1000 keys in one message and refuses 1001 whole, summed over the entries', () => {
    expect(PAYLOAD_LIMITS.keysPerMessage).toBe(1000);
    const refused = { value: [], problems: [{ reason: 'too_many_keys', detail: 'more than 1000 keys in one message' }] };
    const thousand = telemetryEntries(manyKeys(1000), NOW);
    expect(thousand.problems).toEqual([]);
    expect(thousand.value).toHaveLength(1);
    expect(thousand.value[0].values).toHaveLength(1000);
    expect(telemetryEntries(manyKeys(1001), NOW)).toEqual(refused);
    expect(telemetryEntries([{ ts: TS, values: manyKeys(500) }, manyKeys(501, 'x')], NOW)).toEqual(refused);
  });

  it('refuses 10,000 keys in one message whole, even good ones: too_many_keys and no entries', () => {
    expect(telemetryEntries(manyKeys(10_000), NOW)).toEqual({
      value: [], problems: [{ reason: 'too_many_keys', detail: 'more than 1000 keys in one message' }],
    });
    expect(telemetryEntries({ ts: TS, values: manyKeys(10_000) }, NOW)).toEqual({
      value: [], problems: [{ reason: 'too_many_keys', detail: 'more than 1000 keys in one message' }],
    });
  });

  it('refuses shapes that are not telemetry whole', () => {
    for (const json of [42, 'temperature', true, null, [], [1], [{ a: 1 }, 2], [{ a: 1 }, null], [[{ a: 1 }]], { ts: TS, values: 5 },
      { ts: TS, values: [1, 2] }, { ts: TS, values: null }, [{ a: 1 }, { ts: TS, values: 'x' }]]) {
      expect(telemetryEntries(json, NOW), JSON.stringify(json)).toEqual({ value: [], problems: [SHAPE] });
    }
  });
});

describe('attributeValues', () => {
  it('reads one object of attributes of any storable type', () => {
    expect(attributeValues({ firmware: '1.2', battery: 87, charging: false, config: { mode: 'eco' } })).toEqual({
      value: { firmware: '1.2', battery: 87, charging: false, config: { mode: 'eco' } },
      problems: [],
    });
  });

  it('drops bad keys and values with the same rules as telemetry, keeping the good ones', () => {
    expect(attributeValues({ '': 1, ['a'.repeat(256)]: 2, 'n\0ul': 3, none: null, inf: Infinity, text: 'x\0', ok: 'yes' })).toEqual({
      value: { ok: 'yes' },
      problems: [
        { reason: 'bad_key', detail: 'a key is empty' },
        { reason: 'bad_key', detail: 'a key is longer than 255 characters' },
        { reason: 'bad_key', detail: 'a key contains a NUL character' },
        { reason: 'bad_value', detail: 'none: the value is null' },
        { reason: 'bad_value', detail: 'inf: the number is not finite' },
        { reason: 'bad_value', detail: 'text: the value contains a NUL character' },
      ],
    });
  });

  it('refuses anything but an object', () => {
    for (const json of [[], [{ a: 1 }], 'a', 1, null, true]) {
      expect(attributeValues(json), JSON.stringify(json)).toEqual({ value: {}, problems: [{ reason: 'bad_shape', detail: 'attributes must be an object of values' }] });
    }
  });

  it('accepts 1000 attributes and refuses 1001 whole', () => {
    expect(Object.keys(attributeValues(manyKeys(1000)).value)).toHaveLength(1000);
    expect(attributeValues(manyKeys(1001))).toEqual({ value: {}, problems: [{ reason: 'too_many_keys', detail: 'more than 1000 keys in one message' }] });
  });
});

describe('gatewayTelemetry', () => {
  it('reads each device\'s entries', () => {
    const json = { 'Device A': [{ ts: TS, values: { temperature: 21.5 } }], 'Device B': [{ ts: TS, values: { on: true } }, { level: 3 }] };
    expect(gatewayTelemetry(json, NOW)).toEqual({
      value: [
        ['Device A', [{ ts: TS, values: [['temperature', 21.5]] }]],
        ['Device B', [{ ts: TS, values: [['on', true]] }, { ts: NOW, values: [['level', 3]] }]],
      ],
      problems: [],
    });
  });

  it('accepts a single object instead of an array for a device', () => {
    expect(gatewayTelemetry({ 'Device A': { temperature: 1 } }, NOW).value).toEqual([['Device A', [{ ts: NOW, values: [['temperature', 1]] }]]]);
  });

  it('reports bad keys, values and timestamps of each device and keeps the rest', () => {
    const json = { 'Device A': [{ ts: 5, values: { a: 1 } }, { ts: TS, values: { a: null, b: 2 } }], 'Device B': { c: 3 } };
    expect(gatewayTelemetry(json, NOW)).toEqual({
      value: [['Device A', [{ ts: TS, values: [['b', 2]] }]], ['Device B', [{ ts: NOW, values: [['c', 3]] }]]],
      problems: [
        { reason: 'bad_timestamp', detail: 'ts is before the year 2000' },
        { reason: 'bad_value', detail: 'a: the value is null' },
      ],
    });
  });

  it('skips devices with a bad name and keeps the others', () => {
    const problem = { reason: 'bad_device_name', detail: 'a device name must have 1 to 255 characters' };
    const json = { '': { a: 1 }, '   ': { a: 2 }, ['d'.repeat(256)]: { a: 3 }, 'Dev\0ice': { a: 4 }, ['d'.repeat(255)]: { a: 5 } };
    expect(gatewayTelemetry(json, NOW)).toEqual({
      value: [['d'.repeat(255), [{ ts: NOW, values: [['a', 5]] }]]],
      problems: [problem, problem, problem, problem],
    });
  });

  it('reports a device whose part is not telemetry and leaves it out (a gateway does not create it)', () => {
    expect(gatewayTelemetry({ 'Device A': 5, 'Device B': { a: 1 } }, NOW)).toEqual({
      value: [['Device B', [{ ts: NOW, values: [['a', 1]] }]]],
      problems: [SHAPE],
    });
  });

  it('refuses a message that is not an object keyed by device name', () => {
    const problem = { reason: 'bad_shape', detail: 'a gateway message must be an object keyed by device name' };
    for (const json of [[{ 'Device A': { a: 1 } }], 'Device A', 1, null]) {
      expect(gatewayTelemetry(json, NOW), JSON.stringify(json)).toEqual({ value: [], problems: [problem] });
    }
  });

  it('accepts 100 devices in one message and refuses 101 whole', () => {
    expect(PAYLOAD_LIMITS.devicesPerGatewayMessage).toBe(100);
    const devices = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`Device ${i}`, [{ ts: TS, values: { a: i } }]]));
    const hundred = gatewayTelemetry(devices(100), NOW);
    expect(hundred.problems).toEqual([]);
    expect(hundred.value).toHaveLength(100);
    expect(gatewayTelemetry(devices(101), NOW)).toEqual({ value: [], problems: [{ reason: 'too_many_keys', detail: 'more than 100 devices in one message' }] });
  });

  it('refuses more than 1000 keys summed over the devices whole', () => {
    const json = { 'Device A': [{ ts: TS, values: manyKeys(600) }], 'Device B': [manyKeys(401)] };
    expect(gatewayTelemetry(json, NOW)).toEqual({ value: [], problems: [{ reason: 'too_many_keys', detail: 'more than 1000 keys in one message' }] });
    const fits = gatewayTelemetry({ 'Device A': [{ ts: TS, values: manyKeys(600) }], 'Device B': [manyKeys(400)] }, NOW);
    expect(fits.problems).toEqual([]);
    expect(fits.value.map(([name, entries]) => [name, entries[0].values.length])).toEqual([['Device A', 600], ['Device B', 400]]);
  });
});

describe('gatewayAttributes', () => {
  it('reads each device\'s attributes', () => {
    expect(gatewayAttributes({ 'Device A': { firmware: '1.2' }, 'Device B': { battery: 50, ok: true } })).toEqual({
      value: [['Device A', { firmware: '1.2' }], ['Device B', { battery: 50, ok: true }]],
      problems: [],
    });
  });

  it('drops bad attributes and bad device names, keeping the rest', () => {
    expect(gatewayAttributes({ 'Device A': { firmware: null, model: 'X' }, '': { a: 1 }, 'Device B': [1] })).toEqual({
      value: [['Device A', { model: 'X' }]],
      problems: [
        { reason: 'bad_value', detail: 'firmware: the value is null' },
        { reason: 'bad_device_name', detail: 'a device name must have 1 to 255 characters' },
        { reason: 'bad_shape', detail: 'attributes must be an object of values' },
      ],
    });
  });

  it('refuses more than 100 devices and more than 1000 keys whole', () => {
    const devices = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`Device ${i}`, { a: i }]));
    expect(gatewayAttributes(devices)).toEqual({ value: [], problems: [{ reason: 'too_many_keys', detail: 'more than 100 devices in one message' }] });
    expect(gatewayAttributes({ 'Device A': manyKeys(501), 'Device B': manyKeys(500) }))
      .toEqual({ value: [], problems: [{ reason: 'too_many_keys', detail: 'more than 1000 keys in one message' }] });
  });
});

describe('gatewayDevice', () => {
  it('reads the device name and its type', () => {
    expect(gatewayDevice({ device: 'Device A', type: 'Thermometer' })).toEqual({ value: { device: 'Device A', type: 'Thermometer' }, problems: [] });
    expect(gatewayDevice({ device: 'Device A' })).toStrictEqual({ value: { device: 'Device A', type: undefined }, problems: [] });
  });

  it('ignores a type that is not a string or longer than 100 characters', () => {
    expect(gatewayDevice({ device: 'Device A', type: 7 }).value).toStrictEqual({ device: 'Device A', type: undefined });
    expect(gatewayDevice({ device: 'Device A', type: 't'.repeat(101) }).value).toStrictEqual({ device: 'Device A', type: undefined });
    expect(gatewayDevice({ device: 'Device A', type: 't'.repeat(100) }).value).toEqual({ device: 'Device A', type: 't'.repeat(100) });
  });

  it('refuses a message without a device name', () => {
    const problem = { reason: 'bad_shape', detail: 'connect needs {"device": "name"}' };
    for (const json of [{}, { device: 5 }, { name: 'Device A' }, ['Device A'], 'Device A', null]) {
      expect(gatewayDevice(json), JSON.stringify(json)).toEqual({ value: undefined, problems: [problem] });
    }
  });

  it('refuses a bad device name', () => {
    const problem = { reason: 'bad_device_name', detail: 'a device name must have 1 to 255 characters' };
    for (const device of ['', '  ', 'x'.repeat(256), 'a\0b']) {
      expect(gatewayDevice({ device }), JSON.stringify(device)).toEqual({ value: undefined, problems: [problem] });
    }
    expect(gatewayDevice({ device: 'x'.repeat(255) }).problems).toEqual([]);
  });
});
