// Bounded building blocks for request schemas. Every value a client sends is limited before any
// SQL runs: integers to their column type, strings to a length and without NUL (PostgreSQL
// cannot store it in text), arrays and objects to a size, JSON to a nesting depth. The
// hostile-input tests check that every route's schema is built from these.

/** The largest value of a PostgreSQL `integer` column (and of our integer ids). */
export const INT4_MAX = 2_147_483_647;

/** Text without NUL characters. */
export const NO_NUL = '^[^\\u0000]*$';

/** A database id: a positive `integer`. */
export const idSchema = { type: 'integer', minimum: 1, maximum: INT4_MAX } as const;

/** The `after` of a paged read: rows with an id above it (the previous page's `next`). */
export const afterIdSchema = { type: 'integer', minimum: 0, maximum: INT4_MAX, default: 0 } as const;

/** A comma-separated list of ids (query strings); each id is checked against INT4_MAX by `idList`. */
export const idListSchema = { type: 'string', pattern: '^\\d{1,10}(,\\d{1,10}){0,499}$', maxLength: 5500 } as const;

/** Splits a comma-separated id list; undefined when an id is out of range (the caller answers 400). */
export function idList(text: string): number[] | undefined {
  const ids = text.split(',').map(Number);
  return ids.every((id) => id >= 1 && id <= INT4_MAX) ? ids : undefined;
}

/**
 * How deeply arrays and objects may nest in any JSON a client or device sends (`[[1]]` nests 2
 * levels). Checked without recursion before anything recursive (ajv, structuredClone,
 * JSON.stringify, our own walkers) reads the value; docs/decisions.md "JSON nesting" says why 64.
 */
export const MAX_JSON_DEPTH = 64;
