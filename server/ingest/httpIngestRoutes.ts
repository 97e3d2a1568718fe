// ThingsBoard's HTTP device API: POST /api/v1/{token}/telemetry and /attributes with the MQTT
// payloads. 200 once stored, 401 for an unknown token, 400 for bad JSON or values (nothing of
// such a message is stored: the device can correct and resend it whole), 413 over the size limit.
import type { FastifyInstance } from 'fastify';
import { ApiError, type ErrorItem } from '../errors.ts';
import { deviceLabel, type DeviceIngest } from './deviceIngest.ts';
import { PAYLOAD_LIMITS, type PayloadProblem } from '../telemetry/devicePayload.ts';
import { httpDevice, tokenParam } from './httpDevice.ts';
import type { IngestProblems } from './ingestProblems.ts';
import type { TelemetryWriter } from '../telemetry/telemetryWriter.ts';

const paramsSchema = { type: 'object', additionalProperties: false, required: ['token'], properties: { token: tokenParam } } as const;

const refused = (problems: PayloadProblem[]) =>
  ApiError.of(400, problems.slice(0, 10).map((problem): ErrorItem => ({ code: `DEVICE_${problem.reason.toUpperCase()}`, message: problem.detail })));

export function httpIngestRoutes(app: FastifyInstance, ingest: DeviceIngest, writer: TelemetryWriter, problems: IngestProblems) {
  const schema = (summary: string) => ({
    tags: ['devices'], summary, params: paramsSchema,
    body: { description: 'ThingsBoard device API payload (JSON)' },
    response: { 200: { type: 'null', description: 'Stored' } },
  });
  const device = httpDevice(ingest, problems);
  const options = (summary: string) => ({ schema: schema(summary), bodyLimit: PAYLOAD_LIMITS.messageBytes });

  app.post<{ Params: { token: string } }>('/api/v1/:token/telemetry', options('Device telemetry (ThingsBoard device API)'), async (request, reply) => {
    const found = await device(request.params.token);
    const { points, problems: wrong } = ingest.telemetry(found, request.body);
    if (wrong.length) {
      problems.reportAll(wrong, deviceLabel(found));
      throw refused(wrong);
    }
    await writer.write(points);
    ingest.telemetryAccepted(found, points);
    return reply.status(200).send();
  });

  app.post<{ Params: { token: string } }>('/api/v1/:token/attributes', options('Device client attributes (ThingsBoard device API)'), async (request, reply) => {
    const found = await device(request.params.token);
    const wrong = await ingest.attributes(found, request.body, false);
    if (wrong.length) {
      problems.reportAll(wrong, deviceLabel(found));
      throw refused(wrong);
    }
    return reply.status(200).send();
  });
}
