// What one device connection may cost: the sizes, counts and times the device transport holds to.
import { PAYLOAD_LIMITS } from '../../telemetry/devicePayload.ts';

export interface TransportLimits {
  /** The CONNECT must arrive within this long of the connection opening (ms). */
  connectTimeoutMs: number;
  /** Largest packet, header included, either way (announced to MQTT 5 clients as Maximum Packet Size). */
  maxPacketBytes: number;
  /**
   * QoS 1 and 2 messages of one connection being stored, at most (announced to MQTT 5 clients as
   * Receive Maximum); beyond it the connection is not read until one is acknowledged.
   */
  receiveMaximum: number;
  /** QoS 2 messages of one connection acknowledged (PUBREC) and awaiting the device's PUBREL, at most; beyond it the connection is closed. */
  maxAwaitingRelease: number;
  /** Longest client id. */
  maxClientIdLength: number;
  /** Downlink QoS 1 messages of one session awaiting their PUBACK, at most (fewer if an MQTT 5 device asks for fewer). */
  maxOutboundInFlight: number;
  /** Downlink messages of one session waiting for an in-flight slot, at most (more are not delivered). */
  maxOutboundWaiting: number;
  /** How long a downlink QoS 1 message waits for its PUBACK, slot included (ms). */
  downlinkTimeoutMs: number;
  /** Bytes written to a connection and not yet taken by the network beyond which downlink messages are not sent. */
  maxSendBacklogBytes: number;
  /** After the server's DISCONNECT, how long the connection stays open for the device to read it (ms). */
  lingerMs: number;
}

/** Largest MQTT packet: a message at the limit plus its topic and header. */
export const MAX_PACKET_BYTES = PAYLOAD_LIMITS.messageBytes + 1024;

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  connectTimeoutMs: 10_000,
  maxPacketBytes: MAX_PACKET_BYTES,
  receiveMaximum: 100,
  maxAwaitingRelease: 1_000,
  maxClientIdLength: 256,
  maxOutboundInFlight: 16,
  maxOutboundWaiting: 1_000,
  downlinkTimeoutMs: 10_000,
  maxSendBacklogBytes: 1024 * 1024,
  lingerMs: 2_000,
};
