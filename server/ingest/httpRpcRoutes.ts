// ThingsBoard's HTTP device API for commands: GET /api/v1/{token}/rpc?timeout=ms waits for the
// device's next command (408 when none came in time), POST /api/v1/{token}/rpc/{id} answers one,
// POST /api/v1/{token}/rpc asks the platform (device-originated RPC).
import type { FastifyInstance } from 'fastify';
import { idSchema } from '../../src/schemas/bounds.ts';
import { ApiError } from '../errors.ts';
import { answerDeviceRpc } from '../services/deviceRpcMethods.ts';
import { MAX_POLL_MS, type DeviceCommands } from '../services/deviceCommands.ts';
import type { DeviceIngest } from './deviceIngest.ts';
import { PAYLOAD_LIMITS } from './devicePayload.ts';
import { httpDevice, tokenParam } from './httpDevice.ts';
import type { IngestProblems } from './ingestProblems.ts';

const token = tokenParam;
const TAGS = ['devices'];

export function httpRpcRoutes(app: FastifyInstance, ingest: DeviceIngest, commands: DeviceCommands, problems: IngestProblems) {
  const device = httpDevice(ingest, problems);

  app.get<{ Params: { token: string }; Querystring: { timeout: number } }>('/api/v1/:token/rpc', {
    schema: {
      tags: TAGS, summary: 'Wait for the next command (ThingsBoard device API)',
      params: { type: 'object', additionalProperties: false, required: ['token'], properties: { token } },
      querystring: { type: 'object', additionalProperties: false, properties: { timeout: { type: 'integer', minimum: 0, maximum: MAX_POLL_MS, default: 10_000 } } },
    },
  }, async (request, reply) => {
    const found = await device(request.params.token);
    const aborted = new AbortController();
    request.raw.on('close', () => aborted.abort());
    const command = await commands.poll(found, request.query.timeout, aborted.signal);
    if (!command) return reply.status(408).send();
    return { id: command.id, method: command.method, params: command.params };
  });

  app.post<{ Params: { token: string; id: number } }>('/api/v1/:token/rpc/:id', {
    schema: {
      tags: TAGS, summary: "The device's answer to a command (ThingsBoard device API)",
      params: { type: 'object', additionalProperties: false, required: ['token', 'id'], properties: { token, id: idSchema } },
    },
    bodyLimit: PAYLOAD_LIMITS.messageBytes,
  }, async (request, reply) => {
    const found = await device(request.params.token);
    if (!await commands.answer(found, request.params.id, request.body ?? null)) {
      throw new ApiError(404, 'DEVICE_COMMAND_NOT_FOUND', 'No such command is waiting for this device');
    }
    return reply.status(200).send();
  });

  app.post<{ Params: { token: string } }>('/api/v1/:token/rpc', {
    schema: {
      tags: TAGS, summary: 'Ask the platform (device-originated RPC, ThingsBoard device API)',
      params: { type: 'object', additionalProperties: false, required: ['token'], properties: { token } },
    },
    bodyLimit: PAYLOAD_LIMITS.messageBytes,
  }, async (request) => {
    const found = await device(request.params.token);
    const answer = answerDeviceRpc(found, request.body);
    if ('unknownMethod' in answer) throw new ApiError(400, 'DEVICE_RPC_UNKNOWN_METHOD', `Unknown RPC method ${answer.unknownMethod}`, 'method');
    return answer.result;
  });
}
