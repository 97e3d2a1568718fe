// The MQTT broker devices connect to (MQTT_PORT, and MQTT over WebSocket at /mqtt), speaking ThingsBoard's device API: the access
// token is the user name; telemetry, attributes and gateway topics as ThingsBoard documents them.
//
// Back-pressure: aedes reads a client's socket again only after every packet of the last read was
// handled, and a publish is handled only when `authorizePublish` calls back. We call back once the
// points are in the writer's queue (QoS 0) or committed (QoS 1 and 2, so the PUBACK means
// "stored"); while the queue is full that waits, the socket is not read, and TCP slows the device.
import { Aedes, type AedesOptions, type Client, type PublishPacket, type Subscription } from 'aedes';
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { deviceLabel, type DeviceIdentity, type DeviceIngest, type Points } from './deviceIngest.ts';
import { PAYLOAD_LIMITS, parseJson, type PayloadProblem } from './devicePayload.ts';
import { tokenFingerprint, type IngestProblems } from './ingestProblems.ts';
import type { TelemetryWriter } from '../telemetry/telemetryWriter.ts';

export interface MqttListenerOptions {
  port: number;
  host: string;
  /** Open connections at most (the rest are refused by the kernel's accept being closed). */
  maxConnections?: number;
}

export interface MqttListener {
  port: number;
  close(): Promise<void>;
}

/** The device broker: TCP connections (startMqttListener) and MQTT over WebSocket (`/mqtt`) share it. */
export interface MqttBroker {
  /** Serves one connection (a TCP socket or a WebSocket stream). */
  handle(stream: Duplex): void;
  close(): Promise<void>;
}

/** MQTT 3.1.1 CONNACK return code 5. */
const NOT_AUTHORISED = 5;

/** Topics a device may subscribe to (ThingsBoard's); nothing is forwarded on them yet. */
const SUBSCRIBABLE = new Set(['v1/devices/me/attributes', 'v1/devices/me/attributes/response/+', 'v1/devices/me/rpc/request/+', 'v1/gateway/attributes', 'v1/gateway/rpc']);

type DeviceClient = Client & { device?: DeviceIdentity; untrack?: () => void };

const who = (client: DeviceClient) => (client.device ? deviceLabel(client.device) : 'unauthenticated client');

export async function createMqttBroker(ingest: DeviceIngest, writer: TelemetryWriter, problems: IngestProblems): Promise<MqttBroker> {
  const refuse = (client: DeviceClient, list: PayloadProblem[]) => problems.reportAll(list, who(client));

  /** Handles one publish; resolves when aedes may acknowledge it. */
  async function handle(client: DeviceClient, packet: PublishPacket): Promise<void> {
    const device = client.device!;
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    if (payload.length > PAYLOAD_LIMITS.messageBytes) {
      problems.report('too_large', who(client), `a message of ${payload.length} bytes is over ${PAYLOAD_LIMITS.messageBytes}`);
      return;
    }
    const json = parseJson(payload);
    if (json.value === undefined) return refuse(client, json.problems);
    const storeAndWait = async (points: Points) => {
      refuse(client, points.problems);
      const ticket = await writer.enqueue(points.points);
      if (packet.qos > 0) await ticket.committed;
      else ticket.committed.catch(() => { /* QoS 0: the writer logs and counts the failure */ });
    };
    switch (packet.topic) {
      case 'v1/devices/me/telemetry': return storeAndWait(ingest.telemetry(device, json.value));
      case 'v1/devices/me/attributes': return refuse(client, await ingest.attributes(device, json.value));
      case 'v1/gateway/telemetry': return storeAndWait(await ingest.gatewayTelemetry(device, json.value));
      case 'v1/gateway/attributes': return refuse(client, await ingest.gatewayAttributes(device, json.value));
      case 'v1/gateway/connect': return refuse(client, await ingest.gatewayConnection(device, json.value, true));
      case 'v1/gateway/disconnect': return refuse(client, await ingest.gatewayConnection(device, json.value, false));
      default: problems.report('unknown_topic', who(client), `nothing is done with topic ${packet.topic.slice(0, 100)}`);
    }
  }

  const brokerOptions: AedesOptions = {
    connectTimeout: 10_000,
    maxClientsIdLength: 256,
    // The client id is namespaced by the token, so that a device of one tenant choosing the id
    // of another's cannot take over its session (aedes drops the older client of an id).
    preConnect(_client, packet, callback) {
      const namespace = createHash('sha256').update(packet.username ?? '').digest('hex').slice(0, 16);
      packet.clientId = `${namespace}/${packet.clientId ?? ''}`;
      callback(null, true);
    },
    authenticate(client: DeviceClient, username, _password, done) {
      ingest.authenticate(username).then((device) => {
        if (!device) {
          problems.report('bad_token', `client from ${(client.conn as Socket).remoteAddress ?? 'unknown address'}`, `unknown or missing access token (${tokenFingerprint(username)})`);
          return done(Object.assign(new Error('Not authorised'), { returnCode: NOT_AUTHORISED }) as never, false);
        }
        client.device = device;
        done(null, true);
      }, (error: unknown) => done(Object.assign(error instanceof Error ? error : new Error(String(error)), { returnCode: 3 }) as never, false));
    },
    authorizePublish(client: DeviceClient | null, packet, callback) {
      if (!client?.device) return callback(null); // the broker's own messages
      packet.retain = false; // nothing is kept for later subscribers: topics are shared by every device
      handle(client, packet).then(() => callback(null), (error: unknown) => {
        // Not stored (database unavailable): no PUBACK; the client disconnects and sends again later.
        problems.report('write_failed', who(client), error instanceof Error ? error.message.slice(0, 200) : 'the write failed');
        callback(error instanceof Error ? error : new Error('write failed'));
      });
    },
    authorizeSubscribe(_client, subscription: Subscription, callback) {
      callback(null, SUBSCRIBABLE.has(subscription.topic) ? subscription : null);
    },
    // Devices share topic names ("me"): nothing one device publishes may reach another.
    authorizeForward: () => null,
  };
  const broker = await Aedes.createBroker(brokerOptions);
  broker.on('client', (client: DeviceClient) => {
    if (!client.device) return;
    client.untrack = ingest.trackSession(client.device, () => client.close());
    ingest.connected(client.device).catch(() => { /* the database is away: the device still talks */ });
  });
  broker.on('clientDisconnect', (client: DeviceClient) => {
    if (!client.device) return;
    client.untrack?.();
    ingest.disconnected(client.device).catch(() => {});
  });

  return {
    handle(stream) {
      guardPacketSize(broker.handle(stream), stream);
    },
    close: () => new Promise<void>((resolve) => broker.close(() => resolve())),
  };
}

/** Listens for devices on TCP (MQTT_PORT). */
export async function startMqttListener(broker: MqttBroker, options: MqttListenerOptions): Promise<MqttListener> {
  const server: Server = createServer((socket) => broker.handle(socket));
  server.maxConnections = options.maxConnections ?? 10_000;
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

/** Largest MQTT packet: a message at the limit plus its topic and header. */
const MAX_PACKET_BYTES = PAYLOAD_LIMITS.messageBytes + 1024;

/**
 * aedes' parser buffers a packet until it is complete, whatever length its header announces. Once
 * a header announces more than we accept, the connection is closed instead of buffering it.
 */
function guardPacketSize(client: object, stream: Duplex) {
  const parser = (client as { _parser?: { parse(buffer: Buffer): unknown; packet?: { length: number } } })._parser;
  if (!parser) return;
  const parse = parser.parse.bind(parser);
  parser.parse = (buffer: Buffer) => {
    const result = parse(buffer);
    if ((parser.packet?.length ?? 0) > MAX_PACKET_BYTES) stream.destroy();
    return result;
  };
}
