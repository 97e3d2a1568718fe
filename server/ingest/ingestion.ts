// Devices in and out: the ingestion (MQTT over TCP and WebSocket, HTTP), the telemetry writer
// whose commits are told as `telemetry.latest`, what goes back to devices (commands and shared
// attributes, sent by whichever instance holds the connection) and this instance's heartbeat
// among the others. Started by the composition root (server/app.ts).
import type { FastifyInstance } from 'fastify';
import { createWebSocketStream } from 'ws';
import type { AppOptions } from '../appOptions.ts';
import { CHANNELS } from '../db/database.ts';
import { startInstanceHeartbeat } from '../engines/instances/instanceHeartbeat.ts';
import { logsFailure } from '../logsFailure.ts';
import type { PostCommitBus } from '../events/postCommit.ts';
import { deviceAttributeService, type DeviceAttributeService } from './deviceAttributes.ts';
import { deviceCommands, type DeviceCommands } from './deviceCommands.ts';
import { deviceRequests } from './deviceRequests.ts';
import { telemetryWriter, type TelemetryWriter } from '../telemetry/telemetryWriter.ts';
import { deviceIngest, type DeviceIngest } from './deviceIngest.ts';
import { httpDownlinkRoutes } from './httpDownlinkRoutes.ts';
import { httpIngestRoutes } from './httpIngestRoutes.ts';
import { ingestProblems, type IngestProblems } from './ingestProblems.ts';
import { createMqttBroker, type MqttBroker } from './mqttListener.ts';

/** Device ingestion, shared by the HTTP routes, the MQTT listener, CSV import and the demo. */
export interface Ingestion {
  writer: TelemetryWriter;
  devices: DeviceIngest;
  problems: IngestProblems;
  /** Serves MQTT connections: TCP (startMqttListener) and WebSocket (`/mqtt`). */
  broker: MqttBroker;
}

/** What goes from the platform to devices (deviceDownlinkOf). */
export interface DeviceDownlinkServices { commands: DeviceCommands; attributes: DeviceAttributeService }

declare module 'fastify' {
  interface FastifyInstance { ingestion: Ingestion; downlink: DeviceDownlinkServices }
}

/**
 * On close, what the telemetry writer has queued is written for at most this long (a backlog
 * beyond is given up: none of it was acknowledged), so the server stops within its deadline.
 */
const WRITER_DRAIN_MS = 4_000;

/** Starts the ingestion, the downlink and the heartbeat; decorates the app with `ingestion` and `downlink`. */
export async function startDevices(app: FastifyInstance, options: AppOptions, events: PostCommitBus): Promise<{ ingestion: Ingestion; downlink: DeviceDownlinkServices }> {
  const ingestion = await ingestionOf(app, options, events);
  app.decorate('ingestion', ingestion);
  const { devices } = ingestion;
  await options.db.listen(CHANNELS.tenantDataChanged, devices.forgetTenant);
  // A device's token rotated on any instance: its connections here close too.
  await options.db.listen(CHANNELS.deviceCredentialsRotated, (payload) => {
    const entityId = Number(payload);
    if (Number.isSafeInteger(entityId)) devices.closeSessions(entityId);
  });
  // what the notifications missed while this instance was not listening would have dropped
  options.db.onListenerRestored(() => devices.forgetAll());
  httpIngestRoutes(app, devices, ingestion.writer, ingestion.problems);
  const downlink = await deviceDownlinkOf(app, options, ingestion);
  app.decorate('downlink', downlink);
  await startHeartbeat(app, options, events, ingestion);
  return { ingestion, downlink };
}

/** MQTT over WebSocket, for devices that can only reach HTTP(S) ports; the device authenticates in its MQTT CONNECT. */
export function mqttOverWebSocket(scope: FastifyInstance, broker: MqttBroker) {
  scope.route({
    method: 'GET', url: '/mqtt', schema: { hide: true },
    handler: async (_request, reply) => reply.status(426).send({ errors: [{ code: 'UPGRADE_REQUIRED', message: 'MQTT over WebSocket: connect with a WebSocket client' }] }),
    wsHandler: (socket, request) => broker.handle(createWebSocketStream(socket), request.ip),
  });
}

async function ingestionOf(app: FastifyInstance, options: AppOptions, events: PostCommitBus): Promise<Ingestion> {
  const problems = ingestProblems((line) => app.log.warn(line));
  const devices = deviceIngest(options.db, events, problems, app.instanceId, options.ingestLimits);
  const writer = telemetryWriter(options.db, {
    limits: options.writerLimits,
    onLatest: (changes) => events.emit('telemetry.latest', changes),
    onStored: (batches) => events.emit('telemetry.stored', { batches }),
    onError: (error) => problems.report('write_failed', 'telemetry writer', error instanceof Error ? error.message.slice(0, 200) : 'a batch failed'),
    // A fresh reading before every batch: a backlog can fill the reserve within the requests' second.
    isBlocked: options.diskGuard ? () => options.diskGuard!.isFull(0) : undefined,
  });
  const broker = await createMqttBroker(devices, writer, problems, {
    limits: options.mqttLimits,
    onError: (error, where) => app.log.error({ err: error }, `device transport: ${where} failed`),
  });
  app.addHook('onClose', async () => {
    await broker.close();
    await writer.close(WRITER_DRAIN_MS);
    await devices.close();
  });
  return { writer, devices, problems, broker };
}

/**
 * What goes from the platform to devices: commands and shared attributes, announced by whichever
 * instance queued them and sent by the one holding each device's connection; the devices'
 * requests and answers over MQTT and HTTP.
 */
async function deviceDownlinkOf(app: FastifyInstance, options: AppOptions, ingestion: Ingestion): Promise<DeviceDownlinkServices> {
  const report = (what: string) => logsFailure(app.log, what);
  const commands = deviceCommands(options.db, ingestion.broker, { onError: report('device command failed') });
  const attributes = deviceAttributeService(options.db, ingestion.broker);
  const requests = deviceRequests(ingestion.devices, commands, attributes, ingestion.broker);
  await options.db.listen(CHANNELS.deviceCommandsQueued, (payload) => { commands.announced(payload).catch(report('sending commands failed')); });
  await options.db.listen(CHANNELS.sharedAttributesChanged, (payload) => { attributes.announced(payload).catch(report('pushing attributes failed')); });
  // what was announced while this instance was not listening never arrives: what waits is sent again
  options.db.onListenerRestored(() => {
    commands.resendWaiting().catch(report('sending commands failed'));
    attributes.resendShared().catch(report('pushing attributes failed'));
  });
  ingestion.broker.onSubscribe((device, topicFilter) => commands.subscribed(device, topicFilter));
  ingestion.broker.handleRequests(requests);
  httpDownlinkRoutes(app, ingestion.devices, commands, attributes, ingestion.problems);
  return { commands, attributes };
}

/** This instance says it is alive; the devices of instances found dead are told disconnected. */
async function startHeartbeat(app: FastifyInstance, options: AppOptions, events: PostCommitBus, ingestion: Ingestion) {
  const heartbeat = await startInstanceHeartbeat(options.db, {
    instanceId: app.instanceId,
    ...options.instanceHeartbeat,
    onDisconnected: (changes, ms) => {
      for (const change of changes) {
        events.emit('entity.updated', {
          tenantId: change.tenantId,
          update: { id: change.entityId, entity_type_id: change.entityTypeId, diff: { attributes: { active: false, lastActivityTime: ms } }, updated_at: change.updatedAt },
        });
      }
    },
    onRegistrationLost: () => {
      app.log.warn('this instance was taken for dead (not seen for too long): its devices connect again');
      ingestion.broker.endSessions();
    },
    onError: logsFailure(app.log, 'instance heartbeat failed'),
  });
  app.addHook('onClose', () => heartbeat.stop());
}
