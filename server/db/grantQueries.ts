// The SQL of record grants: which users of a tenant a record exists for, and what each may do with
// it. A user's grant on a row is a rank — 1 view, 2 edit, 3 owner (SPEC §6: "view or edit, plus
// owner") — or NULL when the row does not exist for the user. A model either states its rows' grant
// itself (a board: its owner and its shares) or takes it through a link table from the rows it is
// linked to (a component: the best grant of its boards).
import { and, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './database.ts';
import type { LinkTable } from './resourceQueries.ts';

export interface GrantSql {
  /** The user's grant on the row being read (SQL answering the rank, or NULL). */
  of(userId: SQL): SQL;
  /** The users holding a grant on the row whose id is `id` (SQL selecting one column, `user_id`). */
  holders(id: SQL): SQL;
}

/** How a model's rows are granted, as its statements need it. */
export interface TableGrants {
  sql: GrantSql;
  /** The least rank a list answers a row for (the share list: the owner's shares only). */
  listRank: number;
  /** A grant taken through a link field: the linked rows a user holds at least a rank on. */
  through?: { field: string; link: LinkTable; linkedAtLeast(userId: SQL, rank: number): SQL };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user id as a parameter; anything that is not a UUID (an engine publishing a change) holds no grant. */
export const userParam = (userId: string): SQL => sql`${UUID.test(userId) ? userId : null}::uuid`;

/** Wrapped, so that a one-table select keeps the table names of its columns (drizzle drops them only at the top of a selected expression). */
export const nested = (inner: SQL): SQL => sql`(${inner})`;

/** The rows of `target` a link may name: those holding the target's fixed values (boards of one kind). */
export interface LinkTarget { table: PgTable; id: PgColumn; fixed: [PgColumn, unknown][]; grants: GrantSql }

const fixedConditions = (target: LinkTarget) => target.fixed.map(([column, value]) => sql`${column} = ${value}`);

/** The grant of a row through its links: the best the user holds on the linked rows of `target`. */
export function linkedGrants(link: LinkTarget & { via: LinkTable }, ownId: SQL): GrantSql & { linkedAtLeast(userId: SQL, rank: number): SQL } {
  const { via } = link;
  const linked = (extra: SQL[]) => and(sql`${via.own} = ${ownId}`, ...fixedConditions(link), ...extra);
  return {
    of: (userId) => nested(sql`SELECT max(${link.grants.of(userId)}) FROM ${via.table} JOIN ${link.table} ON ${link.id} = ${via.other} WHERE ${linked([])}`),
    holders: (id) => sql`SELECT h.user_id FROM ${via.table} JOIN ${link.table} ON ${link.id} = ${via.other}
      CROSS JOIN LATERAL (${link.grants.holders(sql`${via.other}`)}) h WHERE ${and(sql`${via.own} = ${id}`, ...fixedConditions(link))}`,
    linkedAtLeast: (userId, rank) => sql`${via.other} IN (SELECT ${link.id} FROM ${link.table} WHERE ${and(...fixedConditions(link), sql`${link.grants.of(userId)} >= ${rank}`)})`,
  };
}

/** The ids a row is linked to through `via`, only those of rows the user holds a grant on, in order (an id-list field as the reader sees it). */
export const linkedIdsSeen = (via: LinkTable, ownId: SQL, linkedAtLeast: (userId: SQL, rank: number) => SQL) => (user: SQL): SQL =>
  nested(sql`ARRAY(SELECT ${via.other} FROM ${via.table} WHERE ${via.own} = ${ownId} AND ${linkedAtLeast(user, 1)} ORDER BY 1)`);

/** The users holding a grant on the row `id` (the audience of its changes). */
export async function grantHolders(tx: Tx, grants: GrantSql, id: number): Promise<string[]> {
  const { rows } = await tx.execute(sql`SELECT DISTINCT h.user_id::text AS user_id FROM (${grants.holders(sql`${id}::integer`)}) h WHERE h.user_id IS NOT NULL`) as unknown as { rows: { user_id: string }[] };
  return rows.map((row) => row.user_id);
}
