// GraphQL sockets follow their user's session. A socket's caller is noted when it subscribes (the
// session is checked live then: a socket opened before a revocation cannot subscribe after it);
// when a session is revoked, on any instance (the notification reaches every one), the sockets of
// that session here are closed with 4403. After a lost listening connection, when revocations may
// have been missed, every socket's session is checked again.
import type { FastifyRequest } from 'fastify';
import { revokedSession } from '../errors.ts';
import type { Caller } from '../auth/caller.ts';
import type { GraphqlSockets } from './socketGuard.ts';

export interface SocketSessions {
  /** mercurius' preSubscriptionExecution hook: refuses a revoked session, notes the caller of the socket. */
  subscribing(schema: unknown, document: unknown, context: { request: FastifyRequest; caller?: Caller }): Promise<void>;
  /** A session was revoked: its sockets here are closed. */
  revoked(sessionId: string): void;
  /** Revocations may have been missed: the sockets of sessions no longer live are closed. */
  recheck(): Promise<void>;
}

export function socketSessions(sockets: () => GraphqlSockets | undefined, sessionIsLive: (sessionId: string) => Promise<boolean>): SocketSessions {
  const callers = new WeakMap<FastifyRequest, Caller>();
  const revoked = (sessionId: string) => sockets()?.refuseWhere((request) => callers.get(request)?.sessionId === sessionId);
  return {
    async subscribing(_schema, _document, { request, caller }) {
      if (!caller) return;
      if (!(await sessionIsLive(caller.sessionId))) throw revokedSession();
      callers.set(request, caller);
    },
    revoked,
    async recheck() {
      const sessions = new Set((sockets()?.requests() ?? []).map((request) => callers.get(request)?.sessionId));
      for (const sessionId of sessions) {
        if (sessionId && !(await sessionIsLive(sessionId))) revoked(sessionId);
      }
    },
  };
}
