// One device's session once its CONNECT was accepted: the packets it sends, in order, and the
// messages the server sends it.
//
// A PUBLISH is received (devicePublish.ts) before the next packet is read; its acknowledgement
// follows once it is stored: QoS 1 a PUBACK, QoS 2 a PUBREC, then PUBCOMP on the device's PUBREL
// (a QoS 2 message sent again before that is not stored twice). Acknowledgements leave in the
// order the messages came. At most `receiveMaximum` QoS 1 and 2 messages are being stored at
// once: beyond it the connection is not read until one is acknowledged; a device holding back more
// than `maxAwaitingRelease` PUBRELs is disconnected. A message that could not be stored
// (database unavailable) is not acknowledged over MQTT 3.1.1 and the connection closes, so that
// the device sends it again; an MQTT 5 device gets the acknowledgement with reason 0x80
// (unspecified error) instead. Retain flags are ignored: nothing is kept for later subscribers.
import type { IPublishPacket, IPubrelPacket, ISubscribePacket, IUnsubscribePacket, Packet } from 'mqtt-packet';
import { deviceLabel, type DeviceIdentity } from '../deviceIngest.ts';
import type { IngestProblems } from '../ingestProblems.ts';
import type { ReceiveMessage } from './devicePublish.ts';
import { downlink, type Downlink, type DownlinkOptions } from './downlink.ts';
import type { MqttConnection } from './mqttConnection.ts';
import { REASON } from './reasonCodes.ts';
import { sessionSubscriptions, type SessionSubscriptions } from './subscriptions.ts';
import { isTopicName } from './topicFilter.ts';
import type { TransportLimits } from './transportLimits.ts';

export interface DeviceSession {
  readonly device: DeviceIdentity;
  /** The client id, namespaced by the token: one session per key. */
  readonly key: string;
  readonly connection: MqttConnection;
  handle(packet: Packet): void | Promise<void>;
  /** Sends a message of the server if a subscription of the session matches `topic`; resolves whether the device got it. */
  deliver(topic: string, payload: Buffer, qos: 0 | 1, timeoutMs: number): Promise<boolean>;
  /** Topic filters subscribed. */
  subscriptions(): string[];
  /** The connection ended. */
  end(): void;
}

export interface SessionOptions {
  device: DeviceIdentity;
  key: string;
  connection: MqttConnection;
  limits: TransportLimits;
  problems: IngestProblems;
  receive: ReceiveMessage;
  /** What the device accepts of the server's messages (MQTT 5). */
  client: DownlinkOptions;
  /** The device subscribed to `filter` (once per filter and SUBSCRIBE, after the SUBACK). */
  subscribed(filter: string): void;
}

export function deviceSession(options: SessionOptions): DeviceSession {
  const { device, connection, limits, problems } = options;
  const who = deviceLabel(device);
  // What only some devices use is made when first used: a city's idle sessions stay small.
  let subscriptions: SessionSubscriptions | undefined;
  let outbound: Downlink | undefined;
  /** QoS 1 and 2 messages being stored (received and not yet acknowledged). */
  let unacknowledged = 0;
  /** QoS 2 packet ids being stored, and those whose PUBREC was sent (awaiting PUBREL). */
  let qos2: { storing: Set<number>; awaitingRelease: Set<number> } | undefined;
  const qos2Ids = () => (qos2 ??= { storing: new Set(), awaitingRelease: new Set() });
  /** The acknowledgement sent last (the next waits for it). */
  let lastAcknowledgement: Promise<void> = Promise.resolve();
  let roomWaiter: (() => void) | undefined;
  let ended = false;

  const protocolError = (detail: string, reasonCode: number) => {
    problems.report('protocol_error', who, detail);
    connection.disconnect(reasonCode);
  };

  const writeFailed = (error: unknown) =>
    problems.report('write_failed', who, error instanceof Error ? error.message.slice(0, 200) : 'the write failed');

  const wakeRoom = () => {
    const wake = roomWaiter;
    roomWaiter = undefined;
    wake?.();
  };

  /** Sends the acknowledgement of `packet` once `stored` settles and the ones before it have left. */
  function acknowledge(packet: IPublishPacket, messageId: number, stored: Promise<void>) {
    const previous = lastAcknowledgement;
    lastAcknowledgement = (async () => {
      let failure: { error: unknown } | undefined;
      try {
        await stored;
      } catch (error) {
        failure = { error };
      }
      await previous;
      unacknowledged--;
      if (packet.qos === 2) qos2Ids().storing.delete(messageId);
      const cmd = packet.qos === 2 ? 'pubrec' : 'puback';
      if (!failure) {
        if (packet.qos === 2) qos2Ids().awaitingRelease.add(messageId);
        connection.send({ cmd, messageId, reasonCode: REASON.success });
      } else {
        writeFailed(failure.error);
        if (connection.version === 5) connection.send({ cmd, messageId, reasonCode: REASON.unspecifiedError });
        else connection.disconnect();
      }
      wakeRoom();
    })();
  }

  function receive(packet: IPublishPacket, messageId: number): Promise<void> {
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    const received = options.receive(device, packet.topic, payload);
    if (packet.qos === 0) return received.then(() => undefined, writeFailed);
    unacknowledged++;
    if (packet.qos === 2) qos2Ids().storing.add(messageId);
    acknowledge(packet, messageId, received.then((receipt) => receipt.stored));
    return received.then(() => undefined, () => undefined); // the failure is answered by its acknowledgement
  }

  function onPublish(packet: IPublishPacket): void | Promise<void> {
    if (ended) return;
    if (packet.properties?.topicAlias !== undefined) return protocolError('a topic alias (the server accepts none)', REASON.topicAliasInvalid);
    if (!isTopicName(packet.topic)) return protocolError('a PUBLISH to an empty topic or one with a wildcard', REASON.topicNameInvalid);
    const messageId = packet.messageId ?? 0;
    if (packet.qos === 2) {
      const { storing, awaitingRelease } = qos2Ids();
      // Sent again before the device saw its PUBREC: stored once; the PUBREC is sent (again).
      if (awaitingRelease.has(messageId)) {
        connection.send({ cmd: 'pubrec', messageId, reasonCode: REASON.success });
        return;
      }
      if (storing.has(messageId)) return;
      if (awaitingRelease.size >= limits.maxAwaitingRelease) {
        return protocolError(`more than ${limits.maxAwaitingRelease} QoS 2 messages awaiting PUBREL`, REASON.receiveMaximumExceeded);
      }
    }
    // Only messages being stored make the connection wait: they get acknowledged without the
    // device's help (a PUBREL, behind this message, could not be read while waiting).
    if (packet.qos > 0 && unacknowledged >= limits.receiveMaximum) {
      return new Promise<void>((resolve) => { roomWaiter = resolve; }).then(() => onPublish(packet));
    }
    return receive(packet, messageId);
  }

  function onRelease(packet: IPubrelPacket) {
    const messageId = packet.messageId ?? 0;
    const known = qos2?.awaitingRelease.delete(messageId) ?? false;
    connection.send({ cmd: 'pubcomp', messageId, reasonCode: known ? REASON.success : REASON.packetIdentifierNotFound });
    wakeRoom();
  }

  function onSubscribe(packet: ISubscribePacket) {
    if (packet.subscriptions.length === 0) return protocolError('a SUBSCRIBE without topic filters', REASON.protocolError);
    const identifier = packet.properties?.subscriptionIdentifier;
    const answer = (subscriptions ??= sessionSubscriptions()).subscribe(packet.subscriptions, typeof identifier === 'number' ? identifier : undefined, connection.version);
    if (answer.refused.length) {
      problems.report('refused_subscription', who, `${answer.refused.length} topic filter(s) a device may not subscribe to, such as ${answer.refused[0].slice(0, 100)}`);
    }
    connection.send({ cmd: 'suback', messageId: packet.messageId ?? 0, granted: answer.codes });
    for (const filter of answer.granted) options.subscribed(filter);
  }

  function onUnsubscribe(packet: IUnsubscribePacket) {
    if (packet.unsubscriptions.length === 0) return protocolError('an UNSUBSCRIBE without topic filters', REASON.protocolError);
    connection.send({ cmd: 'unsuback', messageId: packet.messageId ?? 0, granted: (subscriptions ??= sessionSubscriptions()).unsubscribe(packet.unsubscriptions) });
  }

  return {
    device,
    key: options.key,
    connection,
    handle(packet) {
      switch (packet.cmd) {
        case 'publish': return onPublish(packet);
        case 'puback': return outbound?.acknowledged(packet.messageId ?? 0, packet.reasonCode);
        case 'pubrel': return onRelease(packet);
        case 'subscribe': return onSubscribe(packet);
        case 'unsubscribe': return onUnsubscribe(packet);
        case 'pingreq':
          connection.send({ cmd: 'pingresp' });
          return;
        case 'disconnect': return connection.disconnect();
        case 'pubrec':
        case 'pubcomp':
          return; // the server sends no QoS 2 messages: nothing to answer
        default: return protocolError(`a ${packet.cmd} packet after the CONNECT`, REASON.protocolError);
      }
    },
    deliver(topic, payload, qos, timeoutMs) {
      const delivery = ended ? undefined : subscriptions?.match(topic);
      if (!delivery) return Promise.resolve(false);
      return (outbound ??= downlink(connection, limits, options.client)).send({ topic, payload, qos: Math.min(qos, delivery.qos) as 0 | 1, identifiers: delivery.identifiers, timeoutMs });
    },
    subscriptions: () => subscriptions?.filters() ?? [],
    end() {
      if (ended) return;
      ended = true;
      outbound?.end();
      wakeRoom();
    },
  };
}
