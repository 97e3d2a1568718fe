// What a part running on its own (an engine, a listener, a background write) hands its failures
// to: each is logged with the error, under what failed; none is thrown at a caller.
import type { FastifyBaseLogger } from 'fastify';

export const logsFailure = (log: FastifyBaseLogger, what: string) => (error: unknown) => log.error({ err: error }, what);
