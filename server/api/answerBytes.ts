// No answer is unbounded in bytes: a JSON answer, REST or GraphQL, longer than the limit is
// replaced by a 400 ANSWER_TOO_LARGE that says to ask for it in parts. The resource engine's lists
// measure as they write and stop sooner (resourceService); this bounds every other door, whatever
// it forgot to page.
import type { FastifyInstance } from 'fastify';
import { answerTooLarge } from '../errors.ts';

/** Registered before compression, which turns the answer into a stream. */
export function boundAnswerBytes(app: FastifyInstance, maxChars: number, graphqlPath: string) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || payload.length <= maxChars) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    request.log.warn({ reqId: request.id, chars: payload.length }, 'answer too large');
    const [item] = answerTooLarge(maxChars).items;
    reply.code(400);
    return JSON.stringify(request.url.split('?')[0] === graphqlPath
      ? { data: null, errors: [{ message: item.message, extensions: { code: item.code, params: item.params } }] }
      : { errors: [item] });
  });
}
