// API users' bearer tokens: `tsa_` and 32 random bytes in base64url (256 bits), shown once and
// stored only as their SHA-256 hash (a fast hash is right for a secret this long: there is nothing
// to guess). The prefix tells them from access tokens (JWTs) at a glance, in a secret scanner and
// in the server; the token's first characters are kept to tell a user's tokens apart.
import { randomBytes } from 'node:crypto';
import { API_TOKEN_MAX_DAYS } from '../../src/schemas/apiUser.ts';
import { hashToken } from './refreshToken.ts';

export const API_TOKEN_PREFIX = 'tsa_';
const RANDOM_BYTES = 32;
/** base64url of 32 bytes, without padding. */
const TOKEN_PATTERN = /^tsa_[A-Za-z0-9_-]{43}$/;
/** What the list shows of a token: the prefix and 8 characters (48 of its 256 bits). */
const SHOWN_LENGTH = API_TOKEN_PREFIX.length + 8;

export interface NewApiToken { token: string; hash: string; prefix: string }

export function newApiToken(): NewApiToken {
  const token = API_TOKEN_PREFIX + randomBytes(RANDOM_BYTES).toString('base64url');
  return { token, hash: hashToken(token), prefix: token.slice(0, SHOWN_LENGTH) };
}

/** Whether a bearer token is meant as an API token (then it is never tried as a JWT). */
export const isApiToken = (token: string) => token.startsWith(API_TOKEN_PREFIX);

/** Whether it has the form of one we issue (anything else is refused without asking the database). */
export const isWellFormedApiToken = (token: string) => TOKEN_PATTERN.test(token);

export const apiTokenHash = hashToken;

export const apiTokenExpiry = (days = API_TOKEN_MAX_DAYS, from = Date.now()) => new Date(from + Math.min(days, API_TOKEN_MAX_DAYS) * 86_400_000);
