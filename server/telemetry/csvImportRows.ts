// Reads telemetry import rows (cells as the CSV gave them) against a device's CSV header
// definition. Cells are data, never formulas: "=1+2" in a number column is refused, in a text
// column it is stored as the text it is. Pure, so every rule is unit tested.
import type { CsvColumn } from '../db/deviceQueries.ts';
import { PAYLOAD_LIMITS, valueProblem } from './devicePayload.ts';
import type { TelemetryValue } from './telemetryPoint.ts';

export interface RowRefusal { row: number; column: string; message: string }

export interface ReadRow { ts: number; values: [string, TelemetryValue][] }

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Milliseconds of an ISO 8601 time (UTC when it names no offset), or NaN for a day that does not exist. */
function isoTime(text: string): number {
  const match = ISO_TIME.exec(text)!;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date.parse would move 30 February to 2 March.
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return NaN;
  return Date.parse(`${text.replace(' ', 'T')}${match[6] ? '' : 'Z'}`);
}

function timestamp(cell: unknown, now: number): number | string {
  let ms: number;
  if (typeof cell === 'number' || (typeof cell === 'string' && /^\d{10,13}$/.test(cell.trim()))) ms = Number(cell);
  else if (typeof cell === 'string' && ISO_TIME.test(cell.trim())) ms = isoTime(cell.trim());
  else return 'must be a date and time (ISO 8601, e.g. 2026-11-01T10:00:00Z) or milliseconds since 1970';
  if (!Number.isInteger(ms)) return 'must be a date and time (ISO 8601) or milliseconds since 1970';
  if (ms < PAYLOAD_LIMITS.earliestTs) return 'must not be before the year 2000';
  if (ms > now + PAYLOAD_LIMITS.futureMs) return 'must not be more than a day ahead';
  return ms;
}

/** The cell as a value of the column's type, or why it is not one. */
type Cell = { value: TelemetryValue } | { error: string };

function cellValue(cell: string | number | boolean, type: CsvColumn['type']): Cell {
  const text = String(cell).trim();
  switch (type) {
    case 'number': {
      if (typeof cell === 'number') return Number.isFinite(cell) ? { value: cell } : { error: 'must be a finite number' };
      const value = Number(text);
      return NUMBER.test(text) && Number.isFinite(value) ? { value } : { error: 'must be a number' };
    }
    case 'boolean': {
      if (typeof cell === 'boolean') return { value: cell };
      const lower = text.toLowerCase();
      if (lower === 'true' || lower === '1') return { value: true };
      if (lower === 'false' || lower === '0') return { value: false };
      return { error: 'must be true or false' };
    }
    case 'json':
      try {
        const value = JSON.parse(text) as unknown;
        return value !== null && typeof value === 'object' ? { value: value as TelemetryValue } : { error: 'must be a JSON object or array' };
      } catch {
        return { error: 'must be a JSON object or array' };
      }
    default:
      return { value: String(cell) };
  }
}

/** Columns named in the rows that the definition lacks (the whole call is refused for them). */
export function unknownColumns(rows: Record<string, unknown>[], columns: CsvColumn[]): string[] {
  const known = new Set(columns.map((column) => column.name));
  const unknown = new Set<string>();
  for (const row of rows) for (const name of Object.keys(row)) if (!known.has(name)) unknown.add(name);
  return [...unknown];
}

/** Valid rows become readings; each invalid row is refused with the first column that is wrong. */
export function readImportRows(rows: Record<string, string | number | boolean>[], columns: CsvColumn[], firstRow: number, now: number) {
  const valid: ReadRow[] = [];
  const refused: RowRefusal[] = [];
  rows.forEach((row, index) => {
    const rowNumber = firstRow + index;
    const ts = row.ts === undefined || row.ts === '' ? 'is required' : timestamp(row.ts, now);
    if (typeof ts === 'string') {
      refused.push({ row: rowNumber, column: 'ts', message: `ts ${ts}` });
      return;
    }
    const values: [string, TelemetryValue][] = [];
    for (const column of columns) {
      const cell = row[column.name];
      if (column.name === 'ts' || cell === undefined || cell === '') continue;
      const read = cellValue(cell, column.type);
      const wrong = 'error' in read ? `${column.name} ${read.error}` : valueProblem(column.name, read.value)?.detail;
      if (wrong !== undefined || 'error' in read) {
        refused.push({ row: rowNumber, column: column.name, message: wrong! });
        return;
      }
      values.push([column.name, read.value]);
    }
    valid.push({ ts, values });
  });
  return { valid, refused };
}
