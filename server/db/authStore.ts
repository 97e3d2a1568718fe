// Queries behind sign-in, sessions and refresh tokens. They run in system transactions
// because the tenant is not known until the user is found.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { CHANNELS, type Database, type Tx } from './database.ts';
import { authSessions, refreshTokens, users } from './schema.ts';

export type UserRow = typeof users.$inferSelect;

/** Revokes the session and tells every instance (delivered when the transaction commits). */
async function revokeSession(tx: Tx, sessionId: string) {
  await tx.update(authSessions).set({ revokedAt: new Date() }).where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
  await tx.execute(sql`SELECT pg_notify(${CHANNELS.sessionRevoked}, ${sessionId})`);
}

export function authStore(db: Database) {
  return {
    findUserByEmail: (email: string) =>
      db.systemTx(async (tx) => (await tx.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1))[0]),

    createSession: (user: UserRow, tokenHash: string, expiresAt: Date) =>
      db.systemTx(async (tx) => {
        const [session] = await tx.insert(authSessions).values({ tenantId: user.tenantId, userId: user.id }).returning();
        await tx.insert(refreshTokens).values({ tokenHash, tenantId: user.tenantId, sessionId: session.id, expiresAt });
        return session;
      }),

    /** Runs `work` with the refresh token row locked, its session and user. */
    withRefreshToken: <T>(tokenHash: string, work: (tx: Tx, found: {
      token: typeof refreshTokens.$inferSelect; session: typeof authSessions.$inferSelect; user: UserRow;
    } | undefined) => Promise<T>) =>
      db.systemTx(async (tx) => {
        const rows = await tx.select({ token: refreshTokens, session: authSessions, user: users })
          .from(refreshTokens)
          .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
          .innerJoin(users, eq(users.id, authSessions.userId))
          .where(eq(refreshTokens.tokenHash, tokenHash))
          .for('update', { of: refreshTokens });
        return work(tx, rows[0]);
      }),

    markUsed: (tx: Tx, tokenHash: string) => tx.update(refreshTokens).set({ usedAt: new Date() }).where(eq(refreshTokens.tokenHash, tokenHash)),

    addRefreshToken: (tx: Tx, row: typeof refreshTokens.$inferInsert) => tx.insert(refreshTokens).values(row),

    revokeSession,

    revokeSessionById: (sessionId: string) => db.systemTx((tx) => revokeSession(tx, sessionId)),

    /** Whether the session exists and is not revoked (one round trip). */
    sessionIsLive: async (sessionId: string) =>
      (await db.systemQuery(sql`SELECT 1 FROM auth_sessions WHERE id = ${sessionId} AND revoked_at IS NULL`)).length === 1,
  };
}
export type AuthStore = ReturnType<typeof authStore>;
