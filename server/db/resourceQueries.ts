// The statements of the resource engine (server/resources/) on any model's table, as a plain
// description of it says: one record by id, a list page with its filters, search, sort and total,
// insert, update and delete, the link tables behind id-list fields, and the ids of a write that
// must be the tenant's rows. Every statement on a record keeps to its scope: the caller's tenant
// (the second lock behind row-level security), the owner on owner-scoped models, and the values
// every row of the model has.
import { and, asc, count, desc, eq, getTableName, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { columnKeys, columnsByName } from './columnKeys.ts';
import type { Tx } from './database.ts';
import { containing } from './rows.ts';

/** An id-list field kept in a link table: rows of (own id, other id). */
export interface LinkTable { table: PgTable; own: PgColumn; other: PgColumn }

/** A model's table as its statements need it. */
export interface RecordTable {
  table: PgTable;
  id: PgColumn;
  tenant: PgColumn;
  /** Holds the owner's user id on owner-scoped models. */
  owner?: PgColumn;
  /** Columns holding the same value on every row of the model (boards of kind 'performance'). */
  fixed: [PgColumn, unknown][];
  /** What a read answers: field (or `field.property` of an object kept in columns) → column or expression. */
  selection: Record<string, PgColumn | SQL>;
}

/** Whose rows a statement may touch. */
export interface RecordScope { tenantId: string; userId: string }

/** One condition of a list: a time range, any of some values, one value, or linked to any of some ids. */
export type RecordFilter =
  | { column: PgColumn; from?: Date; to?: Date }
  | { column: PgColumn; anyOf: unknown[] }
  | { column: PgColumn; equals: unknown }
  | { link: LinkTable; anyOf: number[] };

export interface ListPage {
  filters: RecordFilter[];
  /** Rows where any of these columns, as text, contains `text` (any letter case). */
  search?: { columns: PgColumn[]; text: string };
  sort: PgColumn;
  descending: boolean;
  limit: number;
  offset: number;
}

/** The ids linked to the row, in order, as an id-list field reads (`table` is the model's). */
export const linkedIds = (link: LinkTable, table: PgTable): SQL =>
  // the outer id spelled out: drizzle writes a lone column of a one-table select without its table
  sql`ARRAY(SELECT ${link.other} FROM ${link.table} WHERE ${link.own} = ${sql.raw(`"${getTableName(table)}"."id"`)} ORDER BY 1)`;

function scopeConditions(table: RecordTable, scope: RecordScope): SQL[] {
  const conditions = [eq(table.tenant, scope.tenantId)];
  if (table.owner) conditions.push(eq(table.owner, scope.userId));
  for (const [column, value] of table.fixed) conditions.push(eq(column, value));
  return conditions;
}

function filterCondition(table: RecordTable, filter: RecordFilter): SQL | undefined {
  if ('link' in filter) {
    const { link, anyOf } = filter;
    return sql`EXISTS (SELECT 1 FROM ${link.table} WHERE ${link.own} = ${table.id} AND ${inArray(link.other, anyOf)})`;
  }
  if ('anyOf' in filter) return inArray(filter.column, filter.anyOf);
  if ('equals' in filter) return eq(filter.column, filter.equals);
  return and(filter.from && gte(filter.column, filter.from), filter.to && lte(filter.column, filter.to));
}

/** The row of `id` in scope (its selection), or undefined. */
export async function findRow(tx: Tx, table: RecordTable, scope: RecordScope, id: number): Promise<Record<string, unknown> | undefined> {
  const [row] = await tx.select(table.selection as never).from(table.table).where(and(eq(table.id, id), ...scopeConditions(table, scope)));
  return row;
}

/** One page of the rows in scope matching the page's filters and search, and how many match in all. */
export async function listRows(tx: Tx, table: RecordTable, scope: RecordScope, page: ListPage): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const conditions = [...scopeConditions(table, scope), ...page.filters.map((filter) => filterCondition(table, filter))];
  if (page.search) {
    const pattern = containing(page.search.text);
    conditions.push(sql`(${sql.join(page.search.columns.map((column) => sql`${column}::text ILIKE ${pattern}`), sql` OR `)})`);
  }
  const where = and(...conditions);
  const direction = page.descending ? desc : asc;
  const rows = await tx.select(table.selection as never).from(table.table).where(where)
    .orderBy(direction(page.sort), direction(table.id)).limit(page.limit).offset(page.offset);
  const [{ total }] = await tx.select({ total: count() }).from(table.table).where(where);
  return { rows, total };
}

/** Inserts a row (`columns` by property key) and answers its id. */
export async function insertRow(tx: Tx, table: RecordTable, columns: Record<string, unknown>): Promise<number> {
  const [{ id }] = await tx.insert(table.table).values(columns as never).returning({ id: table.id }) as { id: number }[];
  return id;
}

export async function updateRow(tx: Tx, table: RecordTable, scope: RecordScope, id: number, columns: Record<string, unknown>): Promise<void> {
  await tx.update(table.table).set(columns as never).where(and(eq(table.id, id), ...scopeConditions(table, scope)));
}

export async function deleteRow(tx: Tx, table: RecordTable, scope: RecordScope, id: number): Promise<void> {
  await tx.delete(table.table).where(and(eq(table.id, id), ...scopeConditions(table, scope)));
}

/** Links the row `id` to `ids` in the tenant (after removing its links first when `replace`). */
export async function writeLinks(tx: Tx, link: LinkTable, tenantId: string, id: number, ids: number[], replace: boolean): Promise<void> {
  if (replace) await tx.delete(link.table).where(eq(link.own, id));
  if (!ids.length) return;
  const keys = columnKeys(link.table);
  const [tenantKey, ownKey, otherKey] = [keys.get('tenant_id')!, keys.get(link.own.name)!, keys.get(link.other.name)!];
  await tx.insert(link.table).values(ids.map((other) => ({ [tenantKey]: tenantId, [ownKey]: id, [otherKey]: other })) as never);
}

/**
 * Which of `ids` are values of `column` on the tenant's rows of its table, each with whether the
 * row is of the kind `kind` marks (true without one). The rows found stay locked against deletion
 * until the transaction ends (FOR KEY SHARE): a delete running meanwhile waits for the write that
 * names them, and one already under way makes this wait and then find the row gone — so a
 * reference kept without a foreign key (in JSON) cannot outlive its row.
 */
export async function tenantRowsAmong(tx: Tx, column: PgColumn, kind: PgColumn | undefined, tenantId: string, ids: unknown[]): Promise<{ id: unknown; ofKind: boolean }[]> {
  const table = column.table as PgTable;
  const rows = await tx.select({ id: column, ofKind: kind ?? sql<boolean>`true` }).from(table)
    .where(and(inArray(column, ids), eq(columnsByName(table).get('tenant_id')!, tenantId))).for('key share');
  return rows as { id: unknown; ofKind: boolean }[];
}
