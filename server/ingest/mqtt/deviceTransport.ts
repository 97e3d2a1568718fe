// The device transport: ThingsBoard's device API over MQTT 3.1 (level 3), 3.1.1 (4) and 5 on one
// port and on the WebSocket door. It is not a broker: devices never hear from each other. A
// device publishes telemetry and attributes (devicePublish.ts), subscribes to the topics of
// ThingsBoard's API (subscriptions.ts) and receives on them what the server sends it
// (publishToDevice), and nothing else.
//
// One connection: mqttConnection.ts (bytes, packets, back-pressure, clocks); its CONNECT:
// connectHandshake.ts; its session: deviceSession.ts. The open sessions of this instance are kept
// by entity id (sessionRegistry.ts) for the server's messages to devices.
import type { Packet } from 'mqtt-packet';
import type { Duplex } from 'node:stream';
import { deviceLabel, type DeviceIdentity, type DeviceIngest } from '../deviceIngest.ts';
import type { IngestProblems } from '../ingestProblems.ts';
import type { TelemetryWriter } from '../../telemetry/telemetryWriter.ts';
import { acceptance, admitConnect } from './connectHandshake.ts';
import { devicePublish, type DeviceRequestHandler } from './devicePublish.ts';
import { deviceSession, type DeviceSession } from './deviceSession.ts';
import { mqttConnection, type MqttConnection } from './mqttConnection.ts';
import { REASON } from './reasonCodes.ts';
import { sessionRegistry } from './sessionRegistry.ts';
import { isTopicName } from './topicFilter.ts';
import { DEFAULT_TRANSPORT_LIMITS, type TransportLimits } from './transportLimits.ts';

export interface DownlinkPublishOptions {
  /** 0: written to the device's connection; 1: acknowledged by the device (PUBACK). */
  qos: 0 | 1;
  /** How long a QoS 1 message waits for its PUBACK (ms; default 10 s): then it counts as not delivered. */
  timeoutMs?: number;
}

export type DeviceListener = (device: DeviceIdentity) => void | Promise<void>;
export type SubscribeListener = (device: DeviceIdentity, topicFilter: string) => void | Promise<void>;
/** A session was opened under `key` (token and client id) at `openedAt` (ms). */
export type SessionOpenedListener = (key: string, openedAt: number) => void;

/** Device connections over TCP (startMqttListener) and WebSocket (`/mqtt`), and the way to send devices messages. */
export interface DeviceTransport {
  /** Serves one connection (a TCP socket or a WebSocket stream). */
  handle(stream: Duplex, remoteAddress?: string): void;
  /** Ends every connection (MQTT 5 devices are told: server shutting down) and accepts no more. */
  close(): Promise<void>;
  /** Open sessions of the device on this instance. */
  sessionsOf(entityId: number): number;
  /** The devices with an open session on this instance. */
  connectedDevices(): number[];
  /** Topic filters the device's open sessions subscribed to (each once). */
  subscriptionsOf(entityId: number): string[];
  /**
   * Sends a message to every open session of the device (on this instance) with a subscription
   * matching `topic`; resolves how many got it (QoS 1: acknowledged it within the timeout).
   */
  publishToDevice(entityId: number, topic: string, payload: Buffer | string, options: DownlinkPublishOptions): Promise<{ delivered: number }>;
  /** Tells `listener` of every accepted connection; answers how to stop. */
  onConnect(listener: DeviceListener): () => void;
  /** Tells `listener` of every session that ended; answers how to stop. */
  onDisconnect(listener: DeviceListener): () => void;
  /** Tells `listener` of every topic filter granted to a device (after the SUBACK); answers how to stop. */
  onSubscribe(listener: SubscribeListener): () => void;
  /** Hands the devices' requests and answers (RPC, attribute requests) to `handler`. */
  handleRequests(handler: DeviceRequestHandler): void;
  /** Tells `listener` of every session opened here (so that other instances can close theirs of the same key). */
  onSessionOpened(listener: SessionOpenedListener): () => void;
  /** Another instance opened a session under `key` at `openedAt`: this instance's, if older, is taken over. */
  takenOver(key: string, openedAt: number): void;
  /** Ends every session here (MQTT 5 devices are told: administrative action); the devices connect again. */
  endSessions(): void;
}

export interface TransportOptions {
  limits?: Partial<TransportLimits>;
  /** Where a failure of the server's own code (a listener, a handler) is reported; default the console. */
  onError?: (error: unknown, where: string) => void;
}

/** How long the server's DISCONNECT lingers at shutdown before the connection is destroyed (ms). */
const SHUTDOWN_LINGER_MS = 300;

export function createDeviceTransport(ingest: DeviceIngest, writer: TelemetryWriter, problems: IngestProblems, options: TransportOptions = {}): DeviceTransport {
  const limits: TransportLimits = { ...DEFAULT_TRANSPORT_LIMITS, ...options.limits };
  const onError = options.onError ?? ((error: unknown, where: string) => console.error(`Device transport: ${where}:`, error));
  let requests: DeviceRequestHandler | undefined;
  const receive = devicePublish(ingest, writer, problems, () => requests);
  const sessions = sessionRegistry<DeviceSession>();
  const connections = new Set<MqttConnection>();
  const listeners = {
    connect: new Set<DeviceListener>(), disconnect: new Set<DeviceListener>(), subscribe: new Set<SubscribeListener>(), opened: new Set<SessionOpenedListener>(),
  };
  /** When each open session was opened (ms). */
  const openedAt = new WeakMap<DeviceSession, number>();
  let closing = false;

  /** Calls each listener; one that throws or rejects is reported and the others still run. */
  const tell = <A extends unknown[]>(set: Set<(...args: A) => void | Promise<void>>, where: string, ...args: A) => {
    for (const listener of set) {
      try {
        const outcome = listener(...args);
        if (outcome) outcome.catch((error: unknown) => onError(error, where));
      } catch (error) {
        onError(error, where);
      }
    }
  };

  const listen = <L>(set: Set<L>, listener: L) => {
    set.add(listener);
    return () => { set.delete(listener); };
  };

  function handle(stream: Duplex, remoteAddress?: string) {
    if (closing || stream.destroyed) {
      stream.destroy();
      return;
    }
    const address = remoteAddress ?? (stream as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown address';
    let session: DeviceSession | undefined;
    let untrack: (() => void) | undefined;

    const connection = mqttConnection(stream, address, limits, {
      packet: (packet) => (session ? session.handle(packet) : connect(packet)),
      refused: (reason, detail) => problems.report(reason, session ? deviceLabel(session.device) : `client from ${address}`, detail),
      failed: (error) => onError(error, session ? deviceLabel(session.device) : `client from ${address}`),
      ended() {
        connections.delete(connection);
        if (!session) return;
        sessions.remove(session);
        session.end();
        untrack?.();
        ingest.disconnected(session.device).catch(() => { /* the database is away: the device is gone all the same */ });
        tell(listeners.disconnect, 'a disconnect listener', session.device);
      },
    });
    connections.add(connection);

    async function connect(packet: Packet): Promise<void> {
      if (packet.cmd !== 'connect') {
        problems.report('protocol_error', `client from ${address}`, `the first packet is ${packet.cmd}, not CONNECT`);
        connection.disconnect();
        return;
      }
      const admission = await admitConnect(connection, packet, (token) => ingest.authenticate(token), limits, problems);
      if (!admission || connection.isEnding()) return;
      const { device, key } = admission;
      const opened = deviceSession({
        device, key, connection, limits, problems, receive, client: admission.client,
        subscribed: (filter) => tell(listeners.subscribe, 'a subscribe listener', device, filter),
      });
      // A second connection with the same token and client id takes over, here or on another instance.
      sessions.byKey(key)?.connection.disconnect(REASON.sessionTakenOver);
      session = opened;
      sessions.add(opened);
      const at = Date.now();
      openedAt.set(opened, at);
      tell(listeners.opened, 'a session listener', key, at);
      connection.send(acceptance(connection.version, admission, limits));
      connection.accepted = true;
      connection.keepAlive(admission.keepalive);
      untrack = ingest.trackSession(device, () => connection.disconnect(REASON.administrativeAction));
      ingest.connected(device).catch(() => { /* the database is away: the device still talks */ });
      tell(listeners.connect, 'a connect listener', device);
    }
  }

  return {
    handle,
    async close() {
      closing = true;
      const open = [...connections];
      for (const connection of open) connection.disconnect(REASON.serverShuttingDown, SHUTDOWN_LINGER_MS);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(open.map((connection) => connection.closed)),
        new Promise((resolve) => { timer = setTimeout(resolve, 2 * SHUTDOWN_LINGER_MS); }),
      ]);
      clearTimeout(timer);
    },
    sessionsOf: (entityId) => sessions.ofEntity(entityId).length,
    connectedDevices: () => sessions.entities(),
    subscriptionsOf: (entityId) => [...new Set(sessions.ofEntity(entityId).flatMap((session) => session.subscriptions()))],
    async publishToDevice(entityId, topic, payload, publishOptions) {
      if (!isTopicName(topic)) throw new TypeError(`not a topic name: ${topic.slice(0, 100)}`);
      const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
      const timeoutMs = publishOptions.timeoutMs ?? limits.downlinkTimeoutMs;
      const results = await Promise.all(sessions.ofEntity(entityId).map((session) => session.deliver(topic, bytes, publishOptions.qos, timeoutMs)));
      return { delivered: results.filter(Boolean).length };
    },
    onConnect: (listener) => listen(listeners.connect, listener),
    onDisconnect: (listener) => listen(listeners.disconnect, listener),
    onSubscribe: (listener) => listen(listeners.subscribe, listener),
    handleRequests(handler) {
      requests = handler;
    },
    onSessionOpened: (listener) => listen(listeners.opened, listener),
    takenOver(key, at) {
      const held = sessions.byKey(key);
      if (held && (openedAt.get(held) ?? 0) <= at) held.connection.disconnect(REASON.sessionTakenOver);
    },
    endSessions() {
      for (const connection of connections) connection.disconnect(REASON.administrativeAction);
    },
  };
}
