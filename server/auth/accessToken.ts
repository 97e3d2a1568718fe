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

export function tokenSigner(secret: string): TokenSigner {
  const key = new TextEncoder().encode(secret);
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
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.tenant !== 'string' || typeof payload.sid !== 'string') throw invalidToken();
        return payload as unknown as AccessClaims;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw expiredToken();
        throw invalidToken();
      }
    },
  };
}
