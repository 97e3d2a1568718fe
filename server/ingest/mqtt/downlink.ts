// Messages the server sends to one device session. QoS 0 is written and counts as delivered;
// QoS 1 gets a packet id (packetIds.ts) and counts as delivered when the device's PUBACK comes
// (an MQTT 5 PUBACK with a failure code, a timeout or the end of the session count as not
// delivered). At most `maxInFlight` QoS 1 messages await their PUBACK at once; the next wait for
// a slot within their timeout. A message larger than the device accepts (MQTT 5 Maximum Packet
// Size) or than the server's own limit, or one for a connection that does not take what it is
// sent (its send backlog is full), is not sent.
import type { IPublishPacket } from 'mqtt-packet';
import { packetIds } from './packetIds.ts';
import { REASON } from './reasonCodes.ts';
import type { MqttConnection } from './mqttConnection.ts';
import type { TransportLimits } from './transportLimits.ts';

export interface DownlinkMessage {
  topic: string;
  payload: Buffer;
  qos: 0 | 1;
  /** MQTT 5 subscription identifiers of the subscriptions it matched. */
  identifiers: number[];
  timeoutMs: number;
}

export interface Downlink {
  /** Resolves whether the device got the message (QoS 1: acknowledged it). */
  send(message: DownlinkMessage): Promise<boolean>;
  /** The device's PUBACK. */
  acknowledged(messageId: number, reasonCode: number | undefined): void;
  /** The session ended: whatever awaits an acknowledgement or a slot is not delivered. */
  end(): void;
}

export interface DownlinkOptions {
  /** What the device accepts (MQTT 5 CONNECT properties). */
  receiveMaximum?: number;
  maximumPacketSize?: number;
}

export function downlink(connection: MqttConnection, limits: TransportLimits, options: DownlinkOptions = {}): Downlink {
  const ids = packetIds();
  const maxInFlight = Math.max(1, Math.min(limits.maxOutboundInFlight, options.receiveMaximum ?? Infinity));
  const maxBytes = Math.min(limits.maxPacketBytes, options.maximumPacketSize ?? Infinity);
  const awaiting = new Map<number, (delivered: boolean) => void>();
  /** Callers waiting for a slot, first come first served. */
  const waiting: ((granted: boolean) => void)[] = [];
  /** Slots granted to callers that have not yet sent. */
  let reserved = 0;
  let ended = false;

  const hasRoom = () => awaiting.size + reserved < maxInFlight;

  /** Resolves true with a slot reserved for the caller, or false if none frees up before `deadline`. */
  const acquire = (deadline: number): Promise<boolean> => {
    if (hasRoom() && waiting.length === 0) {
      reserved++;
      return Promise.resolve(true);
    }
    if (waiting.length >= limits.maxOutboundWaiting) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = (granted: boolean) => {
        clearTimeout(timer);
        resolve(granted);
      };
      const timer = setTimeout(() => {
        const index = waiting.indexOf(wake);
        if (index >= 0) waiting.splice(index, 1);
        resolve(false);
      }, Math.max(0, deadline - Date.now()));
      waiting.push(wake);
    });
  };

  /** Hands a free slot to the first waiting caller. */
  const wakeNext = () => {
    if (waiting.length && hasRoom()) {
      reserved++;
      waiting.shift()!(true);
    }
  };

  const write = (packet: IPublishPacket): boolean => {
    if (ended || connection.isEnding() || connection.backlog() > limits.maxSendBacklogBytes) return false;
    const bytes = connection.encode(packet);
    if (!bytes || bytes.length > maxBytes) return false;
    return connection.write(bytes);
  };

  return {
    async send(message) {
      const packet: IPublishPacket = {
        cmd: 'publish', topic: message.topic, payload: message.payload, qos: message.qos, dup: false, retain: false,
        ...(connection.version === 5 && message.identifiers.length ? { properties: { subscriptionIdentifier: message.identifiers } } : {}),
      };
      if (message.qos === 0) return write(packet);
      const deadline = Date.now() + message.timeoutMs;
      if (!(await acquire(deadline))) return false;
      reserved--;
      const messageId = ended ? undefined : ids.take();
      if (messageId === undefined) {
        wakeNext();
        return false;
      }
      packet.messageId = messageId;
      const settled = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => settle(false), Math.max(0, deadline - Date.now()));
        const settle = (delivered: boolean) => {
          clearTimeout(timer);
          awaiting.delete(messageId);
          ids.release(messageId);
          wakeNext();
          resolve(delivered);
        };
        awaiting.set(messageId, settle);
      });
      if (!write(packet)) awaiting.get(messageId)?.(false);
      return settled;
    },
    acknowledged(messageId, reasonCode) {
      awaiting.get(messageId)?.((reasonCode ?? REASON.success) < REASON.unspecifiedError);
    },
    end() {
      ended = true;
      for (const settle of [...awaiting.values()]) settle(false);
      for (const take of waiting.splice(0)) take(false);
    },
  };
}
