// Renders a Drizzle `sql` query as one text with its parameters written in as literals, so that
// a tenant read can travel with its `SET LOCAL ROLE` and tenant setting in a single simple-query
// round trip (docs/decisions.md "Fast reads"). Text is escaped by node-postgres' `escapeLiteral`
// (libpq's PQescapeLiteral); values that cannot be written safely are refused.
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';

const dialect = new PgDialect();

export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('Cannot write a non-finite number into SQL');
    return String(value);
  }
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return literal(value.toISOString());
  if (typeof value !== 'string') return literal(JSON.stringify(value));
  if (value.includes('\0')) throw new Error('Cannot write NUL into SQL');
  return pg.escapeLiteral(value);
}

/** The query's text with `$n` replaced by the literal of its parameter. */
export function inlineSql(query: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return text.replace(/\$(\d+)/g, (_match, index: string) => literal(params[Number(index) - 1]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A tenant id as a literal, after checking it is a UUID (it comes from a signed token, but still). */
export function uuidLiteral(id: string): string {
  if (!UUID.test(id)) throw new Error('Not a UUID');
  return `'${id}'`;
}
