// The MQTT broker devices connect to (MQTT_PORT, and MQTT over WebSocket at /mqtt), speaking ThingsBoard's device API: the access
// token is the user name; telemetry, attributes and gateway topics as ThingsBoard documents them.
//
// Back-pressure: aedes reads a client's socket again only after every packet of the last read was
// handled, and a publish is handled only when `authorizePublish` calls back. We call back once the
// points are in the writer's queue (QoS 0) or committed (QoS 1 and 2, so the PUBACK means
// "stored"); while the queue is full that waits, the socket is not read, and TCP slows the device.
// One socket read can hold hundreds of messages; they wait for the writer at an admission gate
// still unparsed, in arrival order whatever their QoS.
import { Aedes, type AedesOptions, type Client, type PublishPacket, type Subscription } from 'aedes';
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { deviceLabel, type DeviceIdentity, type DeviceIngest, type Points } from './deviceIngest.ts';
import { admissionGate } from './admissionGate.ts';
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

/** Attribute and connection messages handled at once, at most (each is a database update). */
const UPDATES_AT_ONCE = 16;

/** MQTT 3.1.1 CONNACK return code 5. */
const NOT_AUTHORISED = 5;

/** Topics a device may subscribe to (ThingsBoard's); nothing is forwarded on them yet. */
const SUBSCRIBABLE = new Set(['v1/devices/me/attributes', 'v1/devices/me/attributes/response/+', 'v1/devices/me/rpc/request/+', 'v1/gateway/attributes', 'v1/gateway/rpc']);

type DeviceClient = Client & { device?: DeviceIdentity; untrack?: () => void };

const who = (client: DeviceClient) => (client.device ? deviceLabel(client.device) : 'unauthenticated client');

export async function createMqttBroker(ingest: DeviceIngest, writer: TelemetryWriter, problems: IngestProblems): Promise<MqttBroker> {
  const refuse = (client: DeviceClient, list: PayloadProblem[]) => problems.reportAll(list, who(client));

  // Telemetry becomes queued points one message at a time (the writer's queue applies
  // back-pressure through it); attribute and connection messages, each a database update of its
  // own, a few at a time. Either way, what waits is the packet, not its parsed content.
  const telemetryGate = admissionGate(1);
  const updateGate = admissionGate(UPDATES_AT_ONCE);

  /** Handles one publish; resolves when aedes may acknowledge it. */
  async function handle(client: DeviceClient, packet: PublishPacket): Promise<void> {
    const device = client.device!;
    const parsed = () => {
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      if (payload.length > PAYLOAD_LIMITS.messageBytes) {
        problems.report('too_large', who(client), `a message of ${payload.length} bytes is over ${PAYLOAD_LIMITS.messageBytes}`);
        return undefined;
      }
      const json = parseJson(payload);
      if (json.value === undefined) refuse(client, json.problems);
      return json.value;
    };
    const store = async (points: (json: unknown) => Points | Promise<Points>) => {
      const ticket = await telemetryGate.run(async () => {
        const json = parsed();
        if (json === undefined) return undefined;
        const accepted = await points(json);
        refuse(client, accepted.problems);
        const queued = await writer.enqueue(accepted.points);
        ingest.telemetryAccepted(device, accepted.points);
        return queued;
      });
      if (!ticket) return;
      if (packet.qos > 0) await ticket.committed; // QoS 0 is not waited for: the writer reports failures
    };
    const update = (apply: (json: unknown) => Promise<PayloadProblem[]>) => updateGate.run(async () => {
      const json = parsed();
      if (json !== undefined) refuse(client, await apply(json));
    });
    switch (packet.topic) {
      case 'v1/devices/me/telemetry': return store((json) => ingest.telemetry(device, json));
      case 'v1/gateway/telemetry': return store((json) => ingest.gatewayTelemetry(device, json));
      case 'v1/devices/me/attributes': return update((json) => ingest.attributes(device, json));
      case 'v1/gateway/attributes': return update((json) => ingest.gatewayAttributes(device, json));
      case 'v1/gateway/connect': return update((json) => ingest.gatewayConnection(device, json, true));
      case 'v1/gateway/disconnect': return update((json) => ingest.gatewayConnection(device, json, false));
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
