// Request bodies of sign-in, refresh and sign-out; used by the server routes and the login form.
import type { FromSchema } from 'json-schema-to-ts';
import { NO_NUL } from './bounds.ts';

export const loginSchema = {
  $id: 'login',
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', minLength: 1, maxLength: 320, pattern: NO_NUL },
    password: { type: 'string', minLength: 1, maxLength: 1024, pattern: NO_NUL },
  },
} as const;
export type LoginBody = FromSchema<typeof loginSchema>;

export const refreshSchema = {
  $id: 'refresh',
  type: 'object',
  additionalProperties: false,
  required: ['refresh_token'],
  properties: { refresh_token: { type: 'string', minLength: 1, maxLength: 512, pattern: NO_NUL } },
} as const;
export type RefreshBody = FromSchema<typeof refreshSchema>;

export const logoutSchema = {
  $id: 'logout',
  type: 'object',
  additionalProperties: false,
  properties: { refresh_token: { type: 'string', maxLength: 512, pattern: NO_NUL } },
} as const;
export type LogoutBody = FromSchema<typeof logoutSchema>;

export const tokenPairSchema = {
  type: 'object',
  required: ['access_token', 'refresh_token'],
  properties: { access_token: { type: 'string' }, refresh_token: { type: 'string' } },
} as const;
