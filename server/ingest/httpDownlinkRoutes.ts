// ThingsBoard's HTTP device API towards the device: GET /api/v1/{token}/rpc?timeout=ms waits for
// its next command (408 when none came in time), POST /api/v1/{token}/rpc/{id} answers one, POST
// /api/v1/{token}/rpc asks the platform (device-originated RPC); GET /api/v1/{token}/attributes
// answers its client and shared attributes, GET …/attributes/updates?timeout=ms waits for the next
// shared attribute update.
import type { FastifyInstance } from 'fastify';
import { idSchema, NO_NUL } from '../../src/schemas/bounds.ts';
import { ApiError } from '../errors.ts';
import { answerDeviceRpc } from './deviceRpcMethods.ts';
import { MAX_UPDATES_WAIT_MS, type DeviceAttributeService } from './deviceAttributes.ts';
import { MAX_POLL_MS, type DeviceCommands } from './deviceCommands.ts';
import type { DeviceIngest } from './deviceIngest.ts';
import { PAYLOAD_LIMITS } from '../telemetry/devicePayload.ts';
import { httpDevice, tokenParam } from './httpDevice.ts';
import type { IngestProblems } from './ingestProblems.ts';

const TAGS = ['devices'];

const tokenParams = { type: 'object', additionalProperties: false, required: ['token'], properties: { token: tokenParam } } as const;
const waitQuery = (maximum: number) => ({
  type: 'object', additionalProperties: false, properties: { timeout: { type: 'integer', minimum: 0, maximum, default: 10_000 } },
}) as const;
/** The abort of a waiting request whose client went away. */
function whenGone(raw: { on(event: 'close', listener: () => void): unknown }) {
  const aborted = new AbortController();
  raw.on('close', () => aborted.abort());
  return aborted.signal;
}

export function httpDownlinkRoutes(app: FastifyInstance, ingest: DeviceIngest, commands: DeviceCommands, attributes: DeviceAttributeService, problems: IngestProblems) {
  const device = httpDevice(ingest, problems);

  app.get<{ Params: { token: string }; Querystring: { timeout: number } }>('/api/v1/:token/rpc', {
    schema: {
      tags: TAGS, summary: 'Wait for the next command (ThingsBoard device API)',
      params: tokenParams, querystring: waitQuery(MAX_POLL_MS),
    },
  }, async (request, reply) => {
    const found = await device(request.params.token);
    const command = await commands.poll(found, request.query.timeout, whenGone(request.raw));
    if (!command) return reply.status(408).send();
    return { id: command.id, method: command.method, params: command.params };
  });

  app.post<{ Params: { token: string; id: number } }>('/api/v1/:token/rpc/:id', {
    schema: {
      tags: TAGS, summary: "The device's answer to a command (ThingsBoard device API)",
      params: { type: 'object', additionalProperties: false, required: ['token', 'id'], properties: { token: tokenParam, id: idSchema } },
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
      params: tokenParams,
    },
    bodyLimit: PAYLOAD_LIMITS.messageBytes,
  }, async (request) => {
    const found = await device(request.params.token);
    const answer = answerDeviceRpc(found, request.body);
    if ('unknownMethod' in answer) throw new ApiError(400, 'DEVICE_RPC_UNKNOWN_METHOD', `Unknown RPC method ${answer.unknownMethod}`, 'method');
    return answer.result;
  });

  const keysQuery = { type: 'string', maxLength: 10_000, pattern: NO_NUL } as const;
  app.get<{ Params: { token: string }; Querystring: { clientKeys?: string; sharedKeys?: string } }>('/api/v1/:token/attributes', {
    schema: {
      tags: TAGS, summary: 'The device\'s client and shared attributes (ThingsBoard device API)',
      params: tokenParams,
      querystring: { type: 'object', additionalProperties: false, properties: { clientKeys: keysQuery, sharedKeys: keysQuery } },
    },
  }, async (request) => attributes.request(await device(request.params.token), request.query));

  app.get<{ Params: { token: string }; Querystring: { timeout: number } }>('/api/v1/:token/attributes/updates', {
    schema: { tags: TAGS, summary: 'Wait for the next shared attribute update (ThingsBoard device API)', params: tokenParams, querystring: waitQuery(MAX_UPDATES_WAIT_MS) },
  }, async (request, reply) => {
    const found = await device(request.params.token);
    const update = await attributes.waitForUpdate(found, request.query.timeout, whenGone(request.raw));
    if (!update) return reply.status(408).send();
    return update;
  });
}
