// Reads the payloads of ThingsBoard's device API (telemetry, attributes, gateway) into points
// and attributes, and says what was wrong with the rest. Pure: no I/O, so every rule is unit
// tested (tests/unit/server/devicePayload.test.ts).
import type { TelemetryValue } from './telemetryPoint.ts';
import { memberNestedTooDeep, tooDeepMessage } from '../jsonDepth.ts';

export const PAYLOAD_LIMITS = {
  /** Largest message, MQTT or HTTP (413 over HTTP). */
  messageBytes: 256 * 1024,
  keyLength: 255,
  /** A string, object or array value, serialised. */
  valueBytes: 64 * 1024,
  /** Keys in one message, summed over its entries (and over the devices of a gateway message). */
  keysPerMessage: 1000,
  /** Points may be this far ahead of the server's clock (clock drift, time zones done wrong). */
  futureMs: 24 * 3600 * 1000,
  earliestTs: Date.UTC(2000, 0, 1),
  /** Devices named in one gateway message. */
  devicesPerGatewayMessage: 100,
  deviceNameLength: 255,
} as const;

export type ProblemReason = 'malformed_json' | 'too_deep' | 'bad_shape' | 'too_many_keys' | 'bad_key' | 'bad_value' | 'bad_timestamp' | 'bad_device_name';

export interface PayloadProblem { reason: ProblemReason; detail: string }

export interface TelemetryEntry { ts: number; values: [string, TelemetryValue][] }

export interface Parsed<T> { value: T; problems: PayloadProblem[] }

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const problem = (reason: ProblemReason, detail: string): PayloadProblem => ({ reason, detail });

/** The message as JSON, or the problem that it is not (or nests too deep for the rules below). */
export function parseJson(payload: Buffer | string): Parsed<unknown> | { value?: undefined; problems: PayloadProblem[] } {
  let value: unknown;
  try {
    value = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return { problems: [problem('malformed_json', 'the message is not valid JSON')] };
  }
  if (memberNestedTooDeep(value) !== undefined) return { problems: [problem('too_deep', tooDeepMessage('the message'))] };
  return { value, problems: [] };
}

/** Why a key cannot be stored, or undefined when it can. */
function keyProblem(key: string): PayloadProblem | undefined {
  if (key.length === 0) return problem('bad_key', 'a key is empty');
  if (key.length > PAYLOAD_LIMITS.keyLength) return problem('bad_key', `a key is longer than ${PAYLOAD_LIMITS.keyLength} characters`);
  if (key.includes('\0')) return problem('bad_key', 'a key contains a NUL character');
  return undefined;
}

/** Whether a JSON value holds a NUL character or a non-finite number anywhere (keys included). */
function hasUnstorablePart(value: unknown): 'nul' | 'non_finite' | undefined {
  if (typeof value === 'string') return value.includes('\0') ? 'nul' : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'non_finite';
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = (Array.isArray(value) ? undefined : hasUnstorablePart(key)) ?? hasUnstorablePart(item);
    if (found) return found;
  }
  return undefined;
}

/** Why a value cannot be stored, or undefined when it can (the CSV import applies the same rules). */
export function valueProblem(key: string, value: unknown): PayloadProblem | undefined {
  const name = key.slice(0, 40);
  if (value === null || value === undefined) return problem('bad_value', `${name}: the value is null`);
  if (typeof value === 'boolean') return undefined;
  // before the walks below, which recurse (a CSV cell of 60,000 brackets would overflow them)
  if (memberNestedTooDeep(value) !== undefined) return problem('bad_value', `${name}: ${tooDeepMessage('the value')}`);
  const unstorable = hasUnstorablePart(value);
  if (unstorable === 'non_finite') return problem('bad_value', `${name}: the number is not finite`);
  if (unstorable === 'nul') return problem('bad_value', `${name}: the value contains a NUL character`);
  if (typeof value === 'number') return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (Buffer.byteLength(text) > PAYLOAD_LIMITS.valueBytes) return problem('bad_value', `${name}: the value is larger than 64 kB`);
  return undefined;
}

/** The storable key/value pairs of one object; the rest become problems. */
function keyValues(object: Record<string, unknown>, problems: PayloadProblem[]): [string, TelemetryValue][] {
  const pairs: [string, TelemetryValue][] = [];
  for (const [key, value] of Object.entries(object)) {
    const wrong = keyProblem(key) ?? valueProblem(key, value);
    if (wrong) problems.push(wrong);
    else pairs.push([key, value as TelemetryValue]);
  }
  return pairs;
}

function countKeys(objects: Record<string, unknown>[]): number {
  let keys = 0;
  for (const object of objects) keys += Object.keys(object).length;
  return keys;
}

function timestampProblem(ts: unknown, now: number): PayloadProblem | undefined {
  if (typeof ts !== 'number' || !Number.isInteger(ts)) return problem('bad_timestamp', 'ts must be milliseconds since 1970 as a whole number');
  if (ts < PAYLOAD_LIMITS.earliestTs) return problem('bad_timestamp', 'ts is before the year 2000');
  if (ts > now + PAYLOAD_LIMITS.futureMs) return problem('bad_timestamp', 'ts is more than a day ahead');
  return undefined;
}

const shapeProblem = (what: string) => problem('bad_shape', what);
const TELEMETRY_SHAPE = 'telemetry must be an object of values, {"ts": …, "values": {…}}, or an array of these';

/**
 * `v1/devices/me/telemetry`: `{"temperature": 21.5}`, `{"ts": 1732000000000, "values": {…}}`
 * or an array of either. A message over the key limit is refused whole; single bad keys,
 * values and timestamps are dropped and reported.
 */
export function telemetryEntries(json: unknown, now: number): Parsed<TelemetryEntry[]> {
  const items = Array.isArray(json) ? json : [json];
  const problems: PayloadProblem[] = [];
  if (items.length === 0 || !items.every(isPlainObject)) return { value: [], problems: [shapeProblem(TELEMETRY_SHAPE)] };
  const objects = items.map((item) => ('values' in item && 'ts' in item ? item.values : item));
  if (!objects.every(isPlainObject)) return { value: [], problems: [shapeProblem(TELEMETRY_SHAPE)] };
  if (countKeys(objects) > PAYLOAD_LIMITS.keysPerMessage) {
    return { value: [], problems: [problem('too_many_keys', `more than ${PAYLOAD_LIMITS.keysPerMessage} keys in one message`)] };
  }
  const entries: TelemetryEntry[] = [];
  for (const [index, item] of items.entries()) {
    const timed = 'values' in item && 'ts' in item;
    const wrongTime = timed ? timestampProblem(item.ts, now) : undefined;
    if (wrongTime) {
      problems.push(wrongTime);
      continue;
    }
    const values = keyValues(objects[index], problems);
    if (values.length) entries.push({ ts: timed ? (item.ts as number) : now, values });
  }
  return { value: entries, problems };
}

/** `v1/devices/me/attributes`: one object of client attributes. */
export function attributeValues(json: unknown): Parsed<Record<string, TelemetryValue>> {
  if (!isPlainObject(json)) return { value: {}, problems: [shapeProblem('attributes must be an object of values')] };
  if (Object.keys(json).length > PAYLOAD_LIMITS.keysPerMessage) {
    return { value: {}, problems: [problem('too_many_keys', `more than ${PAYLOAD_LIMITS.keysPerMessage} keys in one message`)] };
  }
  const problems: PayloadProblem[] = [];
  return { value: Object.fromEntries(keyValues(json, problems)), problems };
}

function deviceNameProblem(name: string): PayloadProblem | undefined {
  if (name.trim() === '' || name.length > PAYLOAD_LIMITS.deviceNameLength || name.includes('\0')) {
    return problem('bad_device_name', `a device name must have 1 to ${PAYLOAD_LIMITS.deviceNameLength} characters`);
  }
  return undefined;
}

/** A gateway message `{"Device A": …, "Device B": …}`: each device's part, read by `read`. */
function perDevice<T>(json: unknown, read: (part: unknown) => Parsed<T>): Parsed<[string, T][]> {
  if (!isPlainObject(json)) return { value: [], problems: [shapeProblem('a gateway message must be an object keyed by device name')] };
  const names = Object.keys(json);
  if (names.length > PAYLOAD_LIMITS.devicesPerGatewayMessage) {
    return { value: [], problems: [problem('too_many_keys', `more than ${PAYLOAD_LIMITS.devicesPerGatewayMessage} devices in one message`)] };
  }
  const parts = Object.values(json).flatMap((part) => (Array.isArray(part) ? part : [part]))
    .map((item) => (isPlainObject(item) && isPlainObject(item.values) ? item.values : item)).filter(isPlainObject);
  if (countKeys(parts) > PAYLOAD_LIMITS.keysPerMessage) {
    return { value: [], problems: [problem('too_many_keys', `more than ${PAYLOAD_LIMITS.keysPerMessage} keys in one message`)] };
  }
  const problems: PayloadProblem[] = [];
  const value: [string, T][] = [];
  for (const name of names) {
    const wrongName = deviceNameProblem(name);
    if (wrongName) {
      problems.push(wrongName);
      continue;
    }
    const parsed = read(json[name]);
    problems.push(...parsed.problems);
    // A device whose part held nothing storable is not named (nor created by a gateway).
    if (Array.isArray(parsed.value) ? parsed.value.length : Object.keys(parsed.value as object).length) value.push([name, parsed.value]);
  }
  return { value, problems };
}

/** `v1/gateway/telemetry`: `{"Device A": [{"ts": …, "values": {…}}]}`. */
export const gatewayTelemetry = (json: unknown, now: number) => perDevice(json, (part) => telemetryEntries(part, now));

/** `v1/gateway/attributes`: `{"Device A": {"firmware": "1.2"}}`. */
export const gatewayAttributes = (json: unknown) => perDevice(json, attributeValues);

/** `v1/gateway/connect` and `disconnect`: `{"device": "Device A", "type": "Thermometer"}`. */
export function gatewayDevice(json: unknown): Parsed<{ device: string; type?: string } | undefined> {
  if (!isPlainObject(json) || typeof json.device !== 'string') return { value: undefined, problems: [shapeProblem('connect needs {"device": "name"}')] };
  const wrongName = deviceNameProblem(json.device);
  if (wrongName) return { value: undefined, problems: [wrongName] };
  const type = typeof json.type === 'string' && json.type.length <= 100 ? json.type : undefined;
  return { value: { device: json.device, type }, problems: [] };
}
