// Opaque refresh tokens: random, stored only as a SHA-256 hash.
import { createHash, randomBytes } from 'node:crypto';

export const REFRESH_TOKEN_DAYS = 30;

export const newRefreshToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
export const refreshTokenExpiry = (from = Date.now()) => new Date(from + REFRESH_TOKEN_DAYS * 86_400_000);
