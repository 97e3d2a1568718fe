// Resolves the bearer token of a request to its caller (or answers 401 with a JWT code).
import type { FastifyRequest } from 'fastify';
import { invalidToken } from '../errors.ts';
import type { Authenticator } from '../services/bearerAuthentication.ts';
import type { Caller } from '../auth/caller.ts';

declare module 'fastify' {
  interface FastifyRequest { caller: Caller | null }
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

export async function callerOf(request: FastifyRequest, auth: Authenticator): Promise<Caller> {
  const token = bearerToken(request.headers.authorization);
  if (!token) throw invalidToken();
  return auth.authenticate(token);
}

/** The caller set by the authenticating hook; routes behind it can rely on it. */
export function callerFrom(request: FastifyRequest): Caller {
  if (!request.caller) throw invalidToken();
  return request.caller;
}
