// API users' tokens: signing in (POST /public/auth/login), issuing a token inside a write (sign-in,
// create), resolving a bearer `tsa_…` to its caller, and signing a token out. A token lives at most
// 90 days; each request with it is counted against its rate limit (docs/decisions.md "API users
// and tokens").
import { API_USER_MODULE, type ApiLoginBody } from '../../src/schemas/apiUser.ts';
import { apiTokenCache } from '../auth/apiTokenCache.ts';
import { apiTokenExpiry, apiTokenHash, isWellFormedApiToken, newApiToken } from '../auth/apiTokens.ts';
import { refuseWhileThrottled, type LoginThrottle } from '../auth/loginThrottle.ts';
import { decoyPasswordHash, verifyPassword } from '../auth/passwords.ts';
import { requestRateLimiter, type RateLimit } from '../auth/tokenRateLimit.ts';
import { apiTokenByHash, findApiUserByUsername, insertApiToken, revokeApiTokens } from '../db/apiUserQueries.ts';
import type { Database, Tx } from '../db/database.ts';
import { ApiError, expiredToken, forbidden, invalidToken } from '../errors.ts';
import { isApiCaller, type Caller } from '../auth/caller.ts';

export const INVALID_API_CREDENTIALS = 'Invalid username or password';

/** Live tokens an API user keeps at most: signing in once more revokes the oldest. */
export const MAX_LIVE_TOKENS = 10;

/** A token as the create and sign-in answers show it, once. */
export interface IssuedToken { access_token: string; token_type: 'Bearer'; expires_at: string; expires_in: number }

/** The most characters of a username the sign-in throttle keeps (the schema's bound). */
const MAX_USERNAME = 100;

/** The sign-in throttle's account of an API user: its tenant and username (never an e-mail, which has no `/`). */
const accountOf = (tenant: string, username: string) => `api:${tenant}/${username.toLowerCase()}`;

function tooManyRequests(waitMs: number) {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const error = new ApiError(429, 'API_RATE_LIMITED', `Too many requests with this token. Try again in ${seconds} seconds.`, undefined, { seconds });
  error.retryAfterSeconds = seconds;
  return error;
}

export interface ApiTokenOptions {
  /** Requests per token and window (tests make it small). */
  rateLimit?: RateLimit;
}

export function apiTokenService(db: Database, throttle: LoginThrottle, options: ApiTokenOptions = {}) {
  const cache = apiTokenCache();
  const limiter = requestRateLimiter(options.rateLimit);

  /** Issues a token of the API user inside `tx`; older tokens beyond the live limit are revoked. */
  async function issueToken(tx: Tx, tenantId: string, apiUserId: string, days?: number): Promise<{ issued: IssuedToken; revokedOlder: boolean }> {
    const { token, hash, prefix } = newApiToken();
    const expiresAt = apiTokenExpiry(days);
    const revokedOlder = await insertApiToken(tx, { tenantId, apiUserId, tokenHash: hash, prefix, expiresAt }, MAX_LIVE_TOKENS);
    const expiresIn = Math.round((expiresAt.getTime() - Date.now()) / 1000);
    return { issued: { access_token: token, token_type: 'Bearer', expires_at: expiresAt.toISOString(), expires_in: expiresIn }, revokedOlder };
  }

  return {
    /** The first token of a new API user, inside the transaction that creates it. */
    issue: async (tx: Tx, tenantId: string, apiUserId: string): Promise<IssuedToken> => (await issueToken(tx, tenantId, apiUserId)).issued,

    /** Signs an API user in: a new token (the ones it has stay live until they expire). */
    async login(body: ApiLoginBody, address: string): Promise<IssuedToken> {
      const account = accountOf(body.tenant, body.username);
      await refuseWhileThrottled(throttle, account, address);
      const user = await db.tenantTx(body.tenant, (tx) => findApiUserByUsername(tx, body.tenant, body.username));
      const ok = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), body.password);
      if (!user || !ok) {
        await throttle.recordFailure(account, address);
        throw new ApiError(400, 'invalid_grant', INVALID_API_CREDENTIALS);
      }
      await throttle.recordSuccess(account, address);
      const { issued, revokedOlder } = await db.tenantTx(body.tenant, (tx) => issueToken(tx, body.tenant, user.id, body.token_days));
      if (revokedOlder) cache.clear(); // the other instances hear of it on commit
      return issued;
    },

    /** A sign-in that did not fit the schema counts as a failed attempt (like POST /auth/login's). */
    async countMalformedLogin(body: unknown, address: string): Promise<void> {
      const { tenant, username } = (body ?? {}) as { tenant?: unknown; username?: unknown };
      const account = typeof tenant === 'string' && typeof username === 'string'
        ? accountOf(tenant.replaceAll('\0', '').slice(0, 36), username.replaceAll('\0', '').slice(0, MAX_USERNAME))
        : '';
      await refuseWhileThrottled(throttle, account, address);
      await throttle.recordFailure(account, address);
    },

    /** The caller of an API token: 401 JWT100 when unknown or revoked, JWT101 when expired, 429 over its rate. */
    async authenticate(token: string): Promise<Caller> {
      if (!isWellFormedApiToken(token)) throw invalidToken();
      const hash = apiTokenHash(token);
      let found = cache.get(hash);
      if (!found) {
        const version = cache.version();
        const row = await apiTokenByHash(db, hash);
        if (!row || row.revoked_at) throw invalidToken();
        found = { id: row.id, tenantId: row.tenant_id, apiUserId: row.api_user_id, permissions: row.permissions, expiresAt: new Date(row.expires_at).getTime() };
        if (found.expiresAt > Date.now()) cache.remember(hash, found, version);
      }
      if (found.expiresAt <= Date.now()) throw expiredToken();
      const waitMs = limiter.take(found.id);
      if (waitMs > 0) throw tooManyRequests(waitMs);
      return { tenantId: found.tenantId, userId: found.apiUserId, sessionId: found.id, modules: [API_USER_MODULE], permissions: found.permissions, kind: 'api' };
    },

    /** Revokes the token the API caller came with. */
    async logout(caller: Caller): Promise<void> {
      if (!isApiCaller(caller)) throw forbidden();
      await db.tenantTx(caller.tenantId, (tx) => revokeApiTokens(tx, caller.tenantId, caller.userId, caller.sessionId));
      cache.clear();
    },

    /** Forgets every token remembered (tokens were revoked here, or on another instance). */
    forgetTokens: () => cache.clear(),
  };
}
export type ApiTokenService = ReturnType<typeof apiTokenService>;
