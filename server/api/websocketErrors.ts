// Errors on an open WebSocket (GraphQL's and MQTT's). ws reports a client's broken frame (over
// the 1 MB limit, invalid UTF-8, a bad opcode or close code) as an error after it has already
// closed the socket with the matching code (1009, 1007, 1002): the client's mistake, logged as
// such. Anything else is a server failure, and the socket is dropped.
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

export function onWebSocketError(error: Error & { code?: string }, socket: WebSocket, request: FastifyRequest) {
  if (error.code?.startsWith('WS_ERR_')) {
    request.log.info({ err: error }, 'websocket closed: the client broke the protocol');
    return;
  }
  request.log.error({ err: error }, 'websocket failed');
  socket.terminate();
}
