// Managing a tenant's API users (src/schemas/apiUser.ts): create (POST /api/users, answering the
// first token), list with their live tokens (api_user_list), change a password
// (public_user_update_password: the current one proves it, and every token dies), delete
// (delete_user: its tokens die with it). Who may: the model's access rule, and never an API caller.
import {
  apiUserIdArgsSchema, apiUserPasswordArgsSchema, apiUserSchema, createApiUserSchema,
  type ApiUserPasswordArgs, type CreateApiUserBody,
} from '../../src/schemas/apiUser.ts';
import type { Action, ModelSchema } from '../../src/schemas/model.ts';
import { isCommonPassword } from '../auth/commonPasswords.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import {
  deleteApiUser, findApiUser, insertApiUser, listApiUsers, liveTokensOf, revokeApiTokens, updateApiUserPassword,
  type ApiUserRow, type LiveTokenRow,
} from '../db/apiUserQueries.ts';
import type { Database } from '../db/database.ts';
import { violatedUniqueConstraint } from '../db/databaseErrors.ts';
import { ApiError, badRequest, forbidden, notFound } from '../errors.ts';
import { authorize } from '../resources/resourceAccess.ts';
import { validated } from '../schemaValidator.ts';
import type { ApiTokenService, IssuedToken } from './apiTokenService.ts';
import { isApiCaller, type Caller } from '../auth/caller.ts';
import { PASSWORD_TOO_COMMON } from './passwordService.ts';

/** SPEC §8: an API user's password change with a wrong current password. */
export const WRONG_PASSWORD = 'Wrong password';
export const API_USERNAME_TAKEN = 'This username is already taken. Choose another one.';
const USERNAME_UNIQUE = 'api_users_tenant_username_unique';

const model = apiUserSchema as unknown as ModelSchema;

/** An API user as answered: never its password hash, never a token's hash. */
export type ApiUserRecord = ReturnType<typeof recordOf>;

function recordOf(user: ApiUserRow, tokens: LiveTokenRow[]) {
  return {
    id: user.id,
    username: user.username,
    permissions: user.permissions,
    created_at: user.createdAt.toISOString(),
    tokens: tokens.filter((token) => token.apiUserId === user.id).map((token) => ({
      prefix: token.prefix, expires_at: token.expiresAt.toISOString(), last_used_at: token.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

function refuseCommonPassword(password: string, field: string) {
  if (isCommonPassword(password)) throw badRequest('PASSWORD_TOO_COMMON', PASSWORD_TOO_COMMON, field);
}

export function apiUserService(db: Database, tokens: ApiTokenService) {
  /** The model's access rule for the action; an API token never manages API users, whatever it holds. */
  const authorizeManager = (caller: Caller, action: Action) => {
    if (isApiCaller(caller)) throw forbidden();
    authorize(caller, model, action);
  };

  return {
    authorize: authorizeManager,

    /** Creates an API user and its first token (shown in this answer only). */
    async create(caller: Caller, body: CreateApiUserBody): Promise<ApiUserRecord & IssuedToken & { tenant_id: string }> {
      authorizeManager(caller, 'create');
      const input = validated<CreateApiUserBody>(createApiUserSchema, body, 'body');
      refuseCommonPassword(input.password, 'password');
      const passwordHash = await hashPassword(input.password);
      try {
        return await db.tenantTx(caller.tenantId, async (tx) => {
          const user = await insertApiUser(tx, { tenantId: caller.tenantId, username: input.username, passwordHash, permissions: [...(input.permissions ?? [])] });
          const issued = await tokens.issue(tx, caller.tenantId, user.id);
          return { ...recordOf(user, await liveTokensOf(tx, caller.tenantId, [user.id])), tenant_id: caller.tenantId, ...issued };
        });
      } catch (error) {
        if (violatedUniqueConstraint(error) === USERNAME_UNIQUE) throw new ApiError(409, 'API_USERNAME_TAKEN', API_USERNAME_TAKEN, 'username');
        throw error;
      }
    },

    async list(caller: Caller): Promise<ApiUserRecord[]> {
      authorizeManager(caller, 'read');
      return db.tenantTx(caller.tenantId, async (tx) => {
        const users = await listApiUsers(tx, caller.tenantId);
        const live = await liveTokensOf(tx, caller.tenantId, users.map((user) => user.id));
        return users.map((user) => recordOf(user, live));
      });
    },

    /** Changes an API user's password; every token of it is revoked (it signs in again with the new one). */
    async updatePassword(caller: Caller, args: Record<string, unknown>): Promise<void> {
      authorizeManager(caller, 'update');
      const input = validated<ApiUserPasswordArgs>(apiUserPasswordArgsSchema, args, 'args');
      refuseCommonPassword(input.password, 'password');
      const user = await db.tenantTx(caller.tenantId, (tx) => findApiUser(tx, caller.tenantId, input.userId));
      if (!user) throw notFound();
      if (!(await verifyPassword(user.passwordHash, input.current_password))) throw badRequest('WRONG_PASSWORD', WRONG_PASSWORD, 'current_password');
      const passwordHash = await hashPassword(input.password);
      await db.tenantTx(caller.tenantId, async (tx) => {
        await updateApiUserPassword(tx, caller.tenantId, user.id, passwordHash);
        await revokeApiTokens(tx, caller.tenantId, user.id);
      });
      tokens.forgetTokens();
    },

    /** Deletes an API user; its tokens stop working at once. */
    async remove(caller: Caller, args: Record<string, unknown>): Promise<{ id: string }> {
      authorizeManager(caller, 'delete');
      const { userId } = validated<{ userId: string }>(apiUserIdArgsSchema, args, 'args');
      const deleted = await db.tenantTx(caller.tenantId, (tx) => deleteApiUser(tx, caller.tenantId, userId));
      if (!deleted) throw notFound();
      tokens.forgetTokens();
      return { id: userId };
    },
  };
}
export type ApiUserService = ReturnType<typeof apiUserService>;
