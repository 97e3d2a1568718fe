// Who a board exists for (grantQueries.ts): its owner (rank 3), and the users it is shared with —
// a granted share of the board by its owner, naming the user as requester, with the scope edit
// (2) or view (1). A share's own grant: its owner's (3) and its requester's (1), on shares of
// boards of one kind. Written with the tables' names: server/db/schema.ts declares the boards'
// computed fields with them, before the tables exist as objects.
import { sql, type SQL } from 'drizzle-orm';
import { nested, type GrantSql } from './grantQueries.ts';

/** A share that gives its requester the board: made by the board's owner, granted. */
const givingShare = (board: string, share: string) =>
  sql.raw(`${share}.tenant_id = ${board}.tenant_id AND ${share}.resource = ${board}.resource_uuid AND ${share}.owner = ${board}.owner_id AND ${share}.granted`);

export const boardGrants: GrantSql = {
  of: (user) => nested(sql`CASE WHEN boards.owner_id = ${user} THEN 3
    ELSE (SELECT CASE s.scope WHEN 'edit' THEN 2 ELSE 1 END FROM shares s WHERE ${givingShare('boards', 's')} AND s.requester = ${user}) END`),
  holders: (id) => sql`SELECT b.owner_id AS user_id FROM boards b WHERE b.id = ${id}
    UNION SELECT s.requester FROM boards b JOIN shares s ON ${givingShare('b', 's')} WHERE b.id = ${id}`,
};

/** The grants of shares of boards of `kind`: the share's owner holds it, its requester may see it (and leave it). */
export const shareGrants = (kind: string): GrantSql => ({
  of: (user) => nested(sql`CASE WHEN NOT EXISTS (SELECT 1 FROM boards b WHERE b.tenant_id = shares.tenant_id AND b.resource_uuid = shares.resource AND b.kind = ${kind}) THEN NULL
    WHEN shares.owner = ${user} THEN 3 WHEN shares.requester = ${user} THEN 1 END`),
  holders: (id) => sql`SELECT s.owner AS user_id FROM shares s WHERE s.id = ${id} UNION SELECT s.requester FROM shares s WHERE s.id = ${id}`,
});

/** Whether the reader owns the board. */
export const boardIsOwner = (user: SQL): SQL => nested(sql`coalesce(boards.owner_id = ${user}, false)`);

/** What the reader may do with the board, by their grant: ["owner"], ["view", "edit"] or ["view"] (SPEC §6). */
export const boardScopes = (user: SQL): SQL => nested(sql`CASE ${boardGrants.of(user)} WHEN 3 THEN ARRAY['owner'] WHEN 2 THEN ARRAY['view', 'edit'] WHEN 1 THEN ARRAY['view'] END`);

/** The reader's share of the board (NULL for its owner): { id, owner, ownerName, requester, requesterName, scopeName }. */
export const boardShareOfReader = (user: SQL): SQL => nested(sql`SELECT json_build_object('id', s.id, 'owner', s.owner, 'ownerName', o.username,
    'requester', s.requester, 'requesterName', coalesce(r.username, a.username), 'scopeName', s.scope)
  FROM shares s LEFT JOIN users o ON o.id = s.owner LEFT JOIN users r ON r.id = s.requester LEFT JOIN api_users a ON a.id = s.requester
  WHERE ${givingShare('boards', 's')} AND s.requester = ${user}`);

/** The board's first group: { id, name, attributes }. */
export const boardFirstGroup = (): SQL => nested(sql`SELECT json_build_object('id', g.id, 'name', g.name, 'attributes', g.attributes)
  FROM board_groups bg JOIN groups g ON g.id = bg.group_id WHERE bg.board_id = boards.id ORDER BY g.id LIMIT 1`);
