// API user: a tenant's account for programs that use the public API (SPEC §6: "API boards have
// separate API users with permissions and a token"). It signs in at POST /public/auth/login with
// its tenant, username and password and gets a bearer token (`tsa_…`) that reaches only the
// public-API doors. Tenant users holding the public-API dashboard module and all of
// `public-api.board.*` manage API users. The resource engine does not serve this model (its ids are
// UUIDs, its password is kept only as a hash, its create answers a token): its own doors
// (server/api/apiUserRoutes.ts, server/graphql/apiUserGraphql.ts) take their fields from here.
import type { FromSchema } from 'json-schema-to-ts';
import { NO_NUL } from './bounds.ts';
import { timestamp, uuid } from './fields.ts';
import { enteredPassword, newPassword } from './password.ts';

/** What an API user may be allowed (SPEC §6): the public-API board permissions, nothing else. */
export const API_USER_PERMISSIONS = ['public-api.board.*', 'public-api.board.create', 'public-api.board.edit', 'public-api.board.delete'] as const;

/** The module every API user's token carries. */
export const API_USER_MODULE = 'public-api-dashboard';

/** How long a token lives, by default and at most (days). */
export const API_TOKEN_MAX_DAYS = 90;

/** What every door of the model needs: the module and the whole of the public-API board permissions. */
const manage = { modules: [API_USER_MODULE], permission: 'public-api.board.*' } as const;

/** The message of a username with another character (its code: API_USERNAME_CHARACTERS). */
export const API_USERNAME_CHARACTERS = 'A username may hold only letters, digits and the characters . _ @ -';

/** 3 to 100 letters, digits, `_`, `@`, `-` and `.` (written `\x2E`: a `.` in a pattern reads as "any character" to the bounds lint). */
const username = {
  type: 'string', minLength: 3, maxLength: 100, pattern: '^[A-Za-z0-9_@\\x2E-]+$', 'x-widget': 'text',
  'x-errors': { pattern: 'API_USERNAME_CHARACTERS' },
} as const;

/** A live token as the list shows it: never the token, never its hash. */
const liveToken = {
  type: 'object',
  additionalProperties: false,
  properties: {
    prefix: { type: 'string', maxLength: 20, pattern: NO_NUL },
    expires_at: timestamp,
    last_used_at: { ...timestamp, type: ['string', 'null'] },
  },
} as const;

export const apiUserSchema = {
  $id: 'api_user',
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password'],
  'x-access': { read: manage, create: manage, update: manage, delete: manage },
  'x-api': {
    rest: { create: '/api/users' },
    graphql: { list: 'api_user_list', update: 'public_user_update_password', delete: 'delete_user', type: 'ApiUser' },
  },
  'x-title': 'username',
  'x-default-sort': { field: 'username', order: 'asc' },
  properties: {
    id: { ...uuid, readOnly: true },
    username: { ...username, 'x-label': 'apiUsers.fields.username', 'x-column': true, 'x-sort': true, 'x-order': 1 },
    /** Written, never answered: kept as an argon2id hash. */
    password: { ...newPassword, writeOnly: true, 'x-label': 'apiUsers.fields.password', 'x-widget': 'password', 'x-order': 2 },
    permissions: {
      type: 'array', items: { type: 'string', enum: API_USER_PERMISSIONS }, uniqueItems: true, maxItems: API_USER_PERMISSIONS.length, default: [],
      'x-widget': 'enum-multiple', 'x-label': 'apiUsers.fields.permissions', 'x-column': true, 'x-order': 3,
    },
    created_at: { ...timestamp, 'x-label': 'apiUsers.fields.created_at', 'x-column': true, 'x-sort': true },
    /** The live tokens (not expired, not revoked), newest first. */
    tokens: { type: 'array', maxItems: 1000, items: liveToken, readOnly: true, 'x-label': 'apiUsers.fields.tokens', 'x-column': true },
  },
} as const;
export type ApiUser = FromSchema<typeof apiUserSchema>;

/** POST /api/users: the written fields. */
export const createApiUserSchema = {
  $id: 'createApiUser',
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password'],
  properties: {
    username: apiUserSchema.properties.username,
    password: apiUserSchema.properties.password,
    permissions: apiUserSchema.properties.permissions,
  },
} as const;
export type CreateApiUserBody = FromSchema<typeof createApiUserSchema>;

/** `public_user_update_password(userId, current_password, password)`: the current password proves the change. */
export const apiUserPasswordArgsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['userId', 'current_password', 'password'],
  properties: { userId: uuid, current_password: enteredPassword, password: newPassword },
} as const;
export type ApiUserPasswordArgs = FromSchema<typeof apiUserPasswordArgsSchema>;

/** `delete_user(userId)`. */
export const apiUserIdArgsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['userId'],
  properties: { userId: uuid },
} as const;

/**
 * POST /public/auth/login. Usernames are unique within a tenant, so the tenant (its id, shown on
 * the API users' page and in the create answer) comes with them. `token_days` asks for a shorter
 * life than the 90 days a token has at most.
 */
export const apiLoginSchema = {
  $id: 'apiLogin',
  type: 'object',
  additionalProperties: false,
  required: ['tenant', 'username', 'password'],
  properties: {
    tenant: uuid,
    username: { type: 'string', minLength: 1, maxLength: 100, pattern: NO_NUL },
    password: enteredPassword,
    token_days: { type: 'integer', minimum: 1, maximum: API_TOKEN_MAX_DAYS },
  },
} as const;
export type ApiLoginBody = FromSchema<typeof apiLoginSchema>;

/** A token as the create and sign-in answers carry it: the only time it is shown. */
export const issuedTokenSchema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_at', 'expires_in'],
  properties: {
    access_token: { type: 'string' },
    token_type: { type: 'string', const: 'Bearer' },
    expires_at: { type: 'string' },
    /** Seconds from now. */
    expires_in: { type: 'integer' },
  },
} as const;
