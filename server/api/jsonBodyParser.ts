// The JSON body parser of every route: Fastify's own (JSON.parse and secure-json-parse's
// prototype-key scan, both without recursion), then the nesting bound (MAX_JSON_DEPTH), before
// any hook, schema or handler reads the body. A body over it answers 400 JSON_TOO_DEEP, a client
// error like malformed JSON (the sign-in throttle counts it as one).
//
// GraphQL's `variables` are left to its resolvers: they are the operation's arguments, bounded
// with the other argument rules by `validated()` after the resolver has checked the caller's
// permission, so a caller without it gets 403 whatever they hold.
import type { FastifyInstance } from 'fastify';
import { JSON_TOO_DEEP, memberNestedTooDeep, tooDeepMessage } from '../jsonDepth.ts';

const bodyTooDeep = (member: string) =>
  Object.assign(new Error(tooDeepMessage(member ? `The JSON body (${member.slice(0, 100)})` : 'The JSON body')), { statusCode: 400, code: JSON_TOO_DEEP });

/** What of a GraphQL request body the parser measures: all but its variables. */
const graphqlEnvelope = (body: unknown) =>
  (typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, variables: null } : body);

export function installJsonBodyParser(app: FastifyInstance, graphqlPath: string) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text: string, done) => {
    parse(request, text, (error: Error | null, body?: unknown) => {
      if (error) return done(error, undefined);
      const tooDeep = memberNestedTooDeep(request.routeOptions.url === graphqlPath ? graphqlEnvelope(body) : body);
      if (tooDeep !== undefined) return done(bodyTooDeep(tooDeep), undefined);
      done(null, body);
    });
  });
}
