// A route's access rule checked as soon as the caller is known: a route-level onRequest hook runs
// after the scope's sign-in hook and before the body is read, parsed or validated, so a caller
// without the permission gets 403 whatever the request holds (not 400 for a body they may not
// send at all). The rule is the service's own function; the service still checks it too.
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../auth/caller.ts';
import { callerFrom } from './authenticate.ts';

export const checkAccessFirst = (rule: (caller: Caller) => void) => async (request: FastifyRequest) => {
  rule(callerFrom(request));
};
