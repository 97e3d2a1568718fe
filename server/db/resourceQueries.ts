// The statements of the resource engine (server/resources/) on any model's table, as a plain
// description of it says: one record by id, a list page with its filters, search, sort and total,
// insert, update and delete, the link tables behind id-list fields, and the ids of a write that
// must be the tenant's rows. Every statement on a record keeps to its scope: the caller's tenant
// (the second lock behind row-level security), the owner on owner-scoped models, the values every
// row of the model has, and on granted models the rows the caller holds a grant on (grantQueries.ts).
import { and, asc, count, desc, eq, getTableName, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { columnKeys, columnsByName } from './columnKeys.ts';
import type { Tx } from './database.ts';
import { nested, userParam, type TableGrants } from './grantQueries.ts';
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
  /** What a read answers besides, computed for the reading user (their grant, their share, a field in SQL). */
  readerSelection?(user: SQL): Record<string, SQL>;
  /** On granted models: which users each row exists for, and what each may do with it. */
  grants?: TableGrants;
}

/** The key of a read's row holding the reader's grant on it (taken off before the row becomes a record). */
export const GRANT_KEY = '$grant';

/** What a read of the table answers to the scope's user. */
export function selectionFor(table: RecordTable, scope: RecordScope): Record<string, PgColumn | SQL> {
  const user = userParam(scope.userId);
  return {
    ...table.selection,
    ...table.readerSelection?.(user),
    ...(table.grants ? { [GRANT_KEY]: nested(table.grants.sql.of(user)) } : {}),
  };
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

/** The row's own id, spelled out for a subquery: drizzle writes a lone column of a one-table select without its table. */
export const ownRowId = (table: PgTable): SQL => sql.raw(`"${getTableName(table)}"."id"`);

/** The ids linked to the row, in order, as an id-list field reads (`table` is the model's). */
export const linkedIds = (link: LinkTable, table: PgTable): SQL =>
  sql`ARRAY(SELECT ${link.other} FROM ${link.table} WHERE ${link.own} = ${ownRowId(table)} ORDER BY 1)`;

/** The rows in scope; on granted models those the user holds at least `rank` on (1: any grant). */
function scopeConditions(table: RecordTable, scope: RecordScope, rank = 1): SQL[] {
  const conditions = [eq(table.tenant, scope.tenantId)];
  if (table.owner) conditions.push(eq(table.owner, scope.userId));
  for (const [column, value] of table.fixed) conditions.push(eq(column, value));
  if (table.grants) conditions.push(sql`${table.grants.sql.of(userParam(scope.userId))} >= ${rank}`);
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

/** The row of `id` in scope (its selection, and the user's grant on granted models), or undefined. */
export async function findRow(tx: Tx, table: RecordTable, scope: RecordScope, id: number): Promise<Record<string, unknown> | undefined> {
  return (await findRows(tx, table, scope, [id])).get(id);
}

/** The key of a read's row holding its id whatever the model calls it (taken off before the row is answered). */
const ROW_ID_KEY = '$rowId';

/** The rows of `ids` in scope, by id, as findRow reads each (one statement; an id not there is missing). */
export async function findRows(tx: Tx, table: RecordTable, scope: RecordScope, ids: readonly number[]): Promise<Map<number, Record<string, unknown>>> {
  if (!ids.length) return new Map();
  const found = await tx.select({ ...selectionFor(table, scope), [ROW_ID_KEY]: table.id } as never).from(table.table)
    .where(and(inArray(table.id, [...ids]), ...scopeConditions(table, scope))) as Record<string, unknown>[];
  return new Map(found.map(({ [ROW_ID_KEY]: id, ...row }) => [Number(id), row]));
}

/** One page of the rows in scope matching the page's filters and search, and how many match in all. */
export async function listRows(tx: Tx, table: RecordTable, scope: RecordScope, page: ListPage): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const conditions = [...scopeConditions(table, scope, table.grants?.listRank), ...page.filters.map((filter) => filterCondition(table, filter))];
  if (page.search) {
    const pattern = containing(page.search.text);
    conditions.push(sql`(${sql.join(page.search.columns.map((column) => sql`${column}::text ILIKE ${pattern}`), sql` OR `)})`);
  }
  const where = and(...conditions);
  const direction = page.descending ? desc : asc;
  const rows = await tx.select(selectionFor(table, scope) as never).from(table.table).where(where)
    .orderBy(direction(page.sort), direction(table.id)).limit(page.limit).offset(page.offset);
  const [{ total }] = await tx.select({ total: count() }).from(table.table).where(where);
  return { rows, total };
}

/**
 * Inserts a row (`columns` by property key) and answers its id. With `upsertOn` (the columns of a
 * unique key), a row already holding the key is changed instead (`inserted` false).
 */
export async function insertRow(tx: Tx, table: RecordTable, columns: Record<string, unknown>, upsertOn?: PgColumn[]): Promise<{ id: number; inserted: boolean }> {
  const insert = tx.insert(table.table).values(columns as never);
  const returning = { id: table.id, inserted: sql<boolean>`(xmax = 0)` };
  const [row] = await (upsertOn ? insert.onConflictDoUpdate({ target: upsertOn, set: columns as never }) : insert).returning(returning) as { id: number; inserted: boolean }[];
  return row;
}

export async function updateRow(tx: Tx, table: RecordTable, scope: RecordScope, id: number, columns: Record<string, unknown>): Promise<void> {
  await tx.update(table.table).set(columns as never).where(and(eq(table.id, id), ...scopeConditions(table, scope)));
}

export async function deleteRow(tx: Tx, table: RecordTable, scope: RecordScope, id: number): Promise<void> {
  await tx.delete(table.table).where(and(eq(table.id, id), ...scopeConditions(table, scope)));
}

/**
 * Links the row `id` to `ids` in the tenant, after removing its links first when `replace` (only
 * those meeting `replaceable`, when given: the links a user may change).
 */
export async function writeLinks(tx: Tx, link: LinkTable, tenantId: string, id: number, ids: number[], replace: boolean, replaceable?: SQL): Promise<void> {
  if (replace) await tx.delete(link.table).where(and(eq(link.own, id), replaceable));
  if (!ids.length) return;
  const keys = columnKeys(link.table);
  const [tenantKey, ownKey, otherKey] = [keys.get('tenant_id')!, keys.get(link.own.name)!, keys.get(link.other.name)!];
  await tx.insert(link.table).values(ids.map((other) => ({ [tenantKey]: tenantId, [ownKey]: id, [otherKey]: other })) as never);
}

/** How many links the row `id` has. */
export async function linkCount(tx: Tx, link: LinkTable, id: number): Promise<number> {
  const [{ links }] = await tx.select({ links: count() }).from(link.table).where(eq(link.own, id));
  return links;
}

/** Removes the row's links to `ids` meeting `which` (a condition on the linked id: those a user may change); answers how many links it keeps. */
export async function removeLinks(tx: Tx, link: LinkTable, id: number, ids: number[] | undefined, which?: SQL): Promise<number> {
  await tx.delete(link.table).where(and(eq(link.own, id), ids && inArray(link.other, ids), which));
  return linkCount(tx, link, id);
}

/** Rows of a granted model a reference may name: their fixed values, and the user's grant on each (NULL: none). */
export interface GrantedRows { conditions: SQL[]; grant: SQL }

/** The rows of a granted model's table a reference may name, with the user's grant on each. */
export const grantedRowsOf = (table: RecordTable, userId: string): GrantedRows =>
  ({ conditions: table.fixed.map(([column, value]) => eq(column, value)), grant: table.grants!.sql.of(userParam(userId)) });

/**
 * Which of `ids` are values of `column` on the tenant's rows of its table, each with whether the
 * row is of the kind `kind` marks (true without one) and, for `granted` rows, the user's grant. The
 * rows found stay locked against deletion until the transaction ends (FOR KEY SHARE): a delete
 * running meanwhile waits for the write that names them, and one already under way makes this wait
 * and then find the row gone — so a reference kept without a foreign key (in JSON) cannot outlive
 * its row.
 */
export async function tenantRowsAmong(tx: Tx, column: PgColumn, kind: PgColumn | undefined, tenantId: string, ids: unknown[], granted?: GrantedRows):
  Promise<{ id: unknown; ofKind: boolean; grant: number | null }[]> {
  const table = column.table as PgTable;
  const rows = await tx.select({ id: column, ofKind: kind ?? sql<boolean>`true`, grant: granted ? nested(granted.grant) : sql<number | null>`NULL` }).from(table)
    .where(and(inArray(column, ids), eq(columnsByName(table).get('tenant_id')!, tenantId), ...granted?.conditions ?? [])).for('key share');
  return rows as { id: unknown; ofKind: boolean; grant: number | null }[];
}
