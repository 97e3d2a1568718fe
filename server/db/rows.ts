// Runs raw SQL the same way on both drivers (PGlite and node-postgres both answer `{ rows }`).
import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Tx } from './database.ts';

export async function rows<T>(tx: Tx, query: SQL): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export const intList = (values: number[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

function checkedInt(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error('Not an integer id');
  return value;
}

/** An int[] of ids, each a parameter (an empty array too). */
export const intArray = (values: number[]) => sql`ARRAY[${intList(values.map(checkedInt))}]::int[]`;

/** An int[] (or bigint[]) of ids as one parameter (a list of thousands: the engines' batches). */
export const intArrayParam = (values: readonly number[], type: 'int' | 'bigint' = 'int') => sql`${`{${values.map(checkedInt).join(',')}}`}::${sql.raw(type)}[]`;

/** A text[] of values, each a parameter. */
export const textArray = (values: string[]) => sql`ARRAY[${sql.join(values.map((value) => sql`${value}`), sql`, `)}]::text[]`;

/** The ILIKE pattern of values containing `text`, its own `%`, `_` and `\` taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** A timestamp as the API writes it (ISO 8601, UTC, milliseconds). */
export const isoTime = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The query's only row as JSON text, in column `json` (no row, no result). */
export const asJsonObject = (query: SQL) => sql`SELECT row_to_json(x)::text AS json FROM (${query}) x`;

/** All the query's rows as one JSON array text in column `json`, ordered by `order` (over `x`). */
export const asJsonArray = (query: SQL, order: SQL) => sql`SELECT coalesce(json_agg(x ORDER BY ${order}), '[]')::text AS json FROM (${query}) x`;
