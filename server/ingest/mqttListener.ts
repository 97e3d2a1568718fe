// The MQTT door for devices (MQTT_PORT, and MQTT over WebSocket at /mqtt), speaking ThingsBoard's
// device API over MQTT 3.1, 3.1.1 and 5: the access token is the user name; telemetry, attributes
// and gateway topics as ThingsBoard documents them. The device transport behind it is in
// server/ingest/mqtt/ (deviceTransport.ts).
//
// Back-pressure: the packets of one connection are handled in order, one at a time, and while
// the handling of one waits the socket is not read (mqtt/mqttConnection.ts). A telemetry message
// is handled once its points are in the writer's queue, and its QoS 1 or 2 acknowledgement is sent
// once they are committed (so the PUBACK means "stored"); while the queue is full, `enqueue` waits,
// the socket is not read, and TCP slows the device. A connection has at most `receiveMaximum`
// messages unacknowledged; beyond, it is not read either. What was read and not yet handled waits
// as bytes, unparsed, in arrival order whatever its QoS.
import { createServer, type Server } from 'node:net';
import { DEFAULT_MQTT_MAX_CONNECTIONS } from '../deviceCapacity.ts';
import type { DeviceIngest } from './deviceIngest.ts';
import type { IngestProblems } from './ingestProblems.ts';
import { createDeviceTransport, type DeviceTransport, type TransportOptions } from './mqtt/deviceTransport.ts';
import type { TelemetryWriter } from '../telemetry/telemetryWriter.ts';

export type { DeviceListener, DownlinkPublishOptions, SubscribeListener, TransportOptions } from './mqtt/deviceTransport.ts';
export type { TransportLimits } from './mqtt/transportLimits.ts';
export { MAX_PACKET_BYTES } from './mqtt/transportLimits.ts';

export interface MqttListenerOptions {
  port: number;
  host: string;
  /** Open connections at most (beyond, a new connection is closed at once): MQTT_MAX_CONNECTIONS, or what the open-file limit and the heap allow. */
  maxConnections?: number;
}

export interface MqttListener {
  port: number;
  close(): Promise<void>;
}

/** The device transport: TCP connections (startMqttListener) and MQTT over WebSocket (`/mqtt`) share it. */
export type MqttBroker = DeviceTransport;

export async function createMqttBroker(ingest: DeviceIngest, writer: TelemetryWriter, problems: IngestProblems, options: TransportOptions = {}): Promise<MqttBroker> {
  return createDeviceTransport(ingest, writer, problems, options);
}

/** Listens for devices on TCP (MQTT_PORT). */
export async function startMqttListener(broker: MqttBroker, options: MqttListenerOptions): Promise<MqttListener> {
  const server: Server = createServer((socket) => broker.handle(socket));
  server.maxConnections = options.maxConnections ?? DEFAULT_MQTT_MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
