// Signs and verifies the 15-minute access token (HS256, jose).
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { expiredToken, invalidToken } from '../errors.ts';

export const ACCESS_TOKEN_SECONDS = 15 * 60;

export interface AccessClaims {
  sub: string;
  tenant: string;
  sid: string;
  /** Only when the user has chosen one; otherwise the browser decides. */
  lang?: string;
  languages: string[];
  modules: string[];
  module_permissions: string[];
  maintenance_modes: string[];
}

export interface TokenSigner {
  sign(claims: AccessClaims, lifetimeSeconds?: number): Promise<string>;
  /** Throws the JWT101 (expired) or JWT100 (invalid) ApiError. */
  verify(token: string): Promise<AccessClaims>;
}

const ISSUER = 'terrasight';
/** Verified tokens remembered (a token's verification cannot change before it expires). */
const MAX_VERIFIED = 20_000;

export function tokenSigner(secret: string): TokenSigner {
  const key = new TextEncoder().encode(secret);
  // Every request presents its token; checking the HMAC once per token is enough. Expiry is
  // still checked on every use; liveness of the session is the caller's business.
  const verified = new Map<string, AccessClaims & { exp: number }>();
  return {
    async sign(claims, lifetimeSeconds = ACCESS_TOKEN_SECONDS) {
      const { sub, ...rest } = claims;
      return new SignJWT({ ...rest })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimeSeconds)
        .sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.exp * 1000 > Date.now()) return known;
        verified.delete(token);
        throw expiredToken();
      }
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.tenant !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') {
          throw invalidToken();
        }
        const claims = payload as unknown as AccessClaims & { exp: number };
        if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
        verified.set(token, claims);
        return claims;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw expiredToken();
        throw invalidToken();
      }
    },
  };
}
