// Statements on API users and their tokens. Management and sign-in run in the tenant's transaction
// (row-level security; each statement names the tenant too, the second lock); resolving a bearer
// token is the one cross-tenant read, since the token is all a request brings.
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { CHANNELS, type Database, type Tx } from './database.ts';
import { apiTokens, apiUsers } from './schema.ts';

const answered = { id: apiUsers.id, username: apiUsers.username, permissions: apiUsers.permissions, createdAt: apiUsers.createdAt };
export type ApiUserRow = { id: string; username: string; permissions: string[]; createdAt: Date };
export type LiveTokenRow = { apiUserId: string; prefix: string; expiresAt: Date; lastUsedAt: Date | null };

export const insertApiUser = async (tx: Tx, row: { tenantId: string; username: string; passwordHash: string; permissions: string[] }): Promise<ApiUserRow> =>
  (await tx.insert(apiUsers).values(row).returning(answered))[0];

export const listApiUsers = (tx: Tx, tenantId: string): Promise<ApiUserRow[]> =>
  tx.select(answered).from(apiUsers).where(eq(apiUsers.tenantId, tenantId)).orderBy(asc(sql`lower(${apiUsers.username})`), asc(apiUsers.id));

/** The API user with its password hash (to check a password), or undefined. */
export const findApiUser = async (tx: Tx, tenantId: string, id: string) =>
  (await tx.select({ ...answered, passwordHash: apiUsers.passwordHash }).from(apiUsers).where(and(eq(apiUsers.tenantId, tenantId), eq(apiUsers.id, id))))[0];

/** The tenant's API user of this username in any letter case, with its password hash. */
export const findApiUserByUsername = async (tx: Tx, tenantId: string, username: string) =>
  (await tx.select({ ...answered, passwordHash: apiUsers.passwordHash }).from(apiUsers)
    .where(and(eq(apiUsers.tenantId, tenantId), sql`lower(${apiUsers.username}) = lower(${username})`)))[0];

export const updateApiUserPassword = (tx: Tx, tenantId: string, id: string, passwordHash: string) =>
  tx.update(apiUsers).set({ passwordHash }).where(and(eq(apiUsers.tenantId, tenantId), eq(apiUsers.id, id)));

/** Deletes the API user (its tokens with it) and tells every instance; whether it was there. */
export async function deleteApiUser(tx: Tx, tenantId: string, id: string): Promise<boolean> {
  const deleted = await tx.delete(apiUsers).where(and(eq(apiUsers.tenantId, tenantId), eq(apiUsers.id, id))).returning({ id: apiUsers.id });
  if (deleted.length) await announceRevocation(tx, id);
  return deleted.length > 0;
}

const live = (at: Date) => and(isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, at));

/** The live tokens of these API users, newest first: what may be shown of them. */
export const liveTokensOf = (tx: Tx, tenantId: string, apiUserIds: string[]): Promise<LiveTokenRow[]> =>
  apiUserIds.length === 0 ? Promise.resolve([]) : tx
    .select({ apiUserId: apiTokens.apiUserId, prefix: apiTokens.prefix, expiresAt: apiTokens.expiresAt, lastUsedAt: apiTokens.lastUsedAt })
    .from(apiTokens)
    .where(and(eq(apiTokens.tenantId, tenantId), inArray(apiTokens.apiUserId, apiUserIds), live(new Date())))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));

/**
 * Adds a token of the API user. Its dead tokens (expired or revoked) are deleted, and of its live
 * ones only the newest `keepLive - 1` stay live: signing in again and again keeps a bounded set.
 * Answers whether older tokens were revoked to make room.
 */
export async function insertApiToken(tx: Tx, row: { tenantId: string; apiUserId: string; tokenHash: string; prefix: string; expiresAt: Date }, keepLive: number): Promise<boolean> {
  const now = new Date();
  const mine = and(eq(apiTokens.tenantId, row.tenantId), eq(apiTokens.apiUserId, row.apiUserId));
  await tx.delete(apiTokens).where(and(mine, or(lte(apiTokens.expiresAt, now), isNotNull(apiTokens.revokedAt))));
  const older = await tx.select({ id: apiTokens.id }).from(apiTokens).where(mine).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id)).offset(keepLive - 1);
  if (older.length) {
    await tx.update(apiTokens).set({ revokedAt: now }).where(inArray(apiTokens.id, older.map((token) => token.id)));
    await announceRevocation(tx, row.apiUserId);
  }
  await tx.insert(apiTokens).values(row);
  return older.length > 0;
}

/** Revokes every live token of the API user, or only one of them. */
export async function revokeApiTokens(tx: Tx, tenantId: string, apiUserId: string, tokenId?: string): Promise<void> {
  await tx.update(apiTokens).set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.tenantId, tenantId), eq(apiTokens.apiUserId, apiUserId), tokenId ? eq(apiTokens.id, tokenId) : undefined, isNull(apiTokens.revokedAt)));
  await announceRevocation(tx, apiUserId);
}

/** Every instance forgets what it remembers of the API user's tokens (delivered on commit). */
const announceRevocation = (tx: Tx, apiUserId: string) => tx.execute(sql`SELECT pg_notify(${CHANNELS.apiTokensRevoked}, ${apiUserId})`);

export interface StoredApiToken {
  id: string;
  tenant_id: string;
  api_user_id: string;
  permissions: string[];
  expires_at: Date;
  revoked_at: Date | null;
}

/**
 * The token of this hash with its API user's permissions, or undefined; a live one is marked used
 * (at most once a minute, so a busy program does not write on every request).
 */
export async function apiTokenByHash(db: Database, tokenHash: string): Promise<StoredApiToken | undefined> {
  const [row] = await db.systemQuery<StoredApiToken>(sql`
    WITH found AS (
      SELECT t.id, t.tenant_id, t.api_user_id, u.permissions, t.expires_at, t.revoked_at
      FROM api_tokens t JOIN api_users u ON u.id = t.api_user_id
      WHERE t.token_hash = ${tokenHash}
    ), touched AS (
      UPDATE api_tokens SET last_used_at = now()
      WHERE id IN (SELECT id FROM found WHERE revoked_at IS NULL AND expires_at > now())
        AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
      RETURNING id
    )
    SELECT found.* FROM found LEFT JOIN touched ON touched.id = found.id`);
  return row;
}
