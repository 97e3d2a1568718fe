// Counts the HTTP requests under way as the work people wait for (server/foreground.ts). Not
// counted: a WebSocket, open as long as its page, and the device API (`/api/v1/{token}/…`), whose
// long polls wait for minutes and whose posts are the ingest the engines keep up with.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Foreground } from '../foreground.ts';

const DEVICE_API = '/api/v1/';

export function countRequestsAsForeground(app: FastifyInstance, front: Foreground) {
  const endOf = new WeakMap<FastifyRequest, () => void>();
  app.addHook('onRequest', async (request) => {
    if (request.headers.upgrade || request.url.startsWith(DEVICE_API)) return;
    endOf.set(request, front.began());
  });
  // answered, or given up by the client (a request ends once however many of these it sees)
  const ended = async (request: FastifyRequest) => endOf.get(request)?.();
  app.addHook('onResponse', ended);
  app.addHook('onRequestAbort', ended);
}
