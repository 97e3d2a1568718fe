// Sign-in, token refresh with rotation, sign-out, and resolving a bearer token to a caller.
import type { AccessClaims, TokenSigner } from '../auth/accessToken.ts';
import { refuseWhileThrottled, type LoginThrottle } from '../auth/loginThrottle.ts';
import { decoyPasswordHash, verifyPassword } from '../auth/passwords.ts';
import { hashToken, newRefreshToken, refreshTokenExpiry } from '../auth/refreshToken.ts';
import { sessionCache, type SessionCache } from '../auth/sessionCache.ts';
import type { AuthStore, UserRow } from '../db/authStore.ts';
import { ApiError, revokedSession } from '../errors.ts';
import type { Caller } from '../auth/caller.ts';

export interface TokenPair { access_token: string; refresh_token: string }

export const INVALID_CREDENTIALS = 'Invalid email or password';

/** The longest e-mail address (RFC 5321), also the schema's bound. */
const MAX_EMAIL = 320;
const accountOf = (email: string) => email.trim().toLowerCase();

const claimsOf = (user: UserRow, sessionId: string): AccessClaims => ({
  sub: user.id,
  tenant: user.tenantId,
  sid: sessionId,
  ...(user.lang ? { lang: user.lang } : {}),
  languages: user.languages,
  modules: user.modules,
  module_permissions: user.modulePermissions,
  maintenance_modes: user.maintenanceModes,
});

export function authService(store: AuthStore, signer: TokenSigner, throttle: LoginThrottle, sessions: SessionCache = sessionCache()) {
  /** Whether the session was not revoked (asked of the database at most every few seconds). */
  const sessionIsLive = async (sessionId: string): Promise<boolean> => {
    if (sessions.isLive(sessionId)) return true;
    const version = sessions.version();
    if (!(await store.sessionIsLive(sessionId))) return false;
    sessions.remember(sessionId, version);
    return true;
  };

  return {
    async login(email: string, password: string, address: string): Promise<TokenPair> {
      const account = accountOf(email);
      await refuseWhileThrottled(throttle, account, address);
      const user = await store.findUserByEmail(account);
      const ok = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
      if (!user || !ok) {
        await throttle.recordFailure(account, address);
        throw new ApiError(400, 'invalid_grant', INVALID_CREDENTIALS);
      }
      await throttle.recordSuccess(account, address);
      const refresh = newRefreshToken();
      const session = await store.createSession(user, hashToken(refresh), refreshTokenExpiry());
      return { access_token: await signer.sign(claimsOf(user, session.id)), refresh_token: refresh };
    },

    /**
     * A sign-in request that did not even fit the schema (bad JSON, NUL, missing fields) is a
     * failed attempt too: it counts against its address, and its account when one can be read.
     */
    async countMalformedLogin(body: unknown, address: string): Promise<void> {
      const email = (body as { email?: unknown } | undefined)?.email;
      const account = typeof email === 'string' ? accountOf(email.replaceAll('\0', '').slice(0, MAX_EMAIL)) : '';
      await refuseWhileThrottled(throttle, account, address);
      await throttle.recordFailure(account, address);
    },

    /** Rotates the refresh token; re-use of a spent one revokes the whole session. */
    async refresh(refreshToken: string): Promise<TokenPair> {
      const tokenHash = hashToken(refreshToken);
      const outcome = await store.withRefreshToken(tokenHash, async (tx, found) => {
        if (!found) return { revoked: true as const };
        const { token, session, user } = found;
        if (token.usedAt || session.revokedAt || token.expiresAt.getTime() <= Date.now()) {
          await store.revokeSession(tx, session.id);
          return { revoked: true as const, sessionId: session.id };
        }
        await store.markUsed(tx, tokenHash);
        const next = newRefreshToken();
        await store.addRefreshToken(tx, { tokenHash: hashToken(next), tenantId: user.tenantId, sessionId: session.id, expiresAt: refreshTokenExpiry() });
        return { revoked: false as const, user, sessionId: session.id, next };
      });
      // The revocation above must commit, so the error is raised only after the transaction.
      if (outcome.revoked) {
        if (outcome.sessionId) sessions.forget(outcome.sessionId);
        throw revokedSession();
      }
      return { access_token: await signer.sign(claimsOf(outcome.user, outcome.sessionId)), refresh_token: outcome.next };
    },

    async logout(refreshToken: string | undefined, caller: Caller | undefined): Promise<void> {
      if (refreshToken) {
        const revoked = await store.withRefreshToken(hashToken(refreshToken), async (tx, found) => {
          if (found) await store.revokeSession(tx, found.session.id);
          return found?.session.id;
        });
        if (revoked) sessions.forget(revoked);
      }
      if (caller) {
        await store.revokeSessionById(caller.sessionId);
        sessions.forget(caller.sessionId);
      }
    },

    /** Drops a session revoked elsewhere (another instance) from the cache. */
    forgetSession: (sessionId: string) => sessions.forget(sessionId),
    forgetAllSessions: () => sessions.forgetAll(),

    sessionIsLive,

    /** Verifies a bearer token and that its session is still live (asked at most every few seconds). */
    async authenticate(accessToken: string): Promise<Caller> {
      const claims = await signer.verify(accessToken);
      if (!(await sessionIsLive(claims.sid))) throw revokedSession();
      return {
        tenantId: claims.tenant,
        userId: claims.sub,
        sessionId: claims.sid,
        modules: claims.modules ?? [],
        permissions: claims.module_permissions ?? [],
        maintenanceModes: claims.maintenance_modes ?? [],
        kind: 'user',
      };
    },
  };
}
export type AuthService = ReturnType<typeof authService>;
