// A Drizzle table's columns by their database names, and the property keys Drizzle's insert and
// update take their values under (`tenant_id` → `tenantId`).
import { getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/** column name → column */
export const columnsByName = (table: PgTable): Map<string, PgColumn> =>
  new Map(Object.values(getTableColumns(table)).map((column) => [column.name, column as PgColumn]));

/** column name → the property key of its value in an insert or update */
export const columnKeys = (table: PgTable): Map<string, string> =>
  new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [column.name, key]));
