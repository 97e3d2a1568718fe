// One stored telemetry value and how it maps onto the table's typed columns (docs/api.md
// "Device API"): numbers in value_num; booleans in value_bool and as 1/0 in value_num, so that
// they aggregate (a parking spot's occupancy share); strings in value_text; objects and arrays
// in value_json.

export type TelemetryValue = number | string | boolean | Record<string, unknown> | unknown[];

export interface TelemetryPoint {
  tenantId: string;
  entityId: number;
  key: string;
  /** Milliseconds since the epoch. */
  ts: number;
  value: TelemetryValue;
}

/** The row shape the writer sends to the database (short names keep batches small). */
export interface PointRow { t: string; e: number; k: string; ms: number; n: number | null; s: string | null; b: boolean | null; j: unknown }

export function pointRow(point: TelemetryPoint): PointRow {
  const { value } = point;
  const row: PointRow = { t: point.tenantId, e: point.entityId, k: point.key, ms: point.ts, n: null, s: null, b: null, j: null };
  if (typeof value === 'number') row.n = value;
  else if (typeof value === 'boolean') {
    row.b = value;
    row.n = value ? 1 : 0;
  } else if (typeof value === 'string') row.s = value;
  else row.j = value;
  return row;
}

export interface StoredValueColumns { value_num: number | null; value_text: string | null; value_bool: boolean | null; value_json: unknown }

/** The value a client sees, from the typed columns. */
export function storedValue(row: StoredValueColumns): TelemetryValue | null {
  if (row.value_bool !== null) return row.value_bool;
  if (row.value_json !== null) return row.value_json as TelemetryValue;
  if (row.value_num !== null) return Number(row.value_num);
  return row.value_text;
}
