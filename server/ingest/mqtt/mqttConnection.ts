// One device connection (a TCP socket or a WebSocket stream) as MQTT packets: its bytes are cut
// into whole packets (packetFramer.ts: an over-long packet is refused from its header), each parsed
// (packetParser.ts) in the protocol version its CONNECT named, and handed over in order, one at a
// time. While the handling of a packet waits (the writer's admission gate, a full queue, an
// in-flight window), no further packet is handled and the stream is paused: its socket is not
// read and TCP slows the device down. What was read and not yet handled stays bytes.
//
// The connection also keeps the two clocks of the protocol: a CONNECT within the connect timeout,
// and then a packet within 1.5 × the keep alive the device chose.
import { generate, type Packet } from 'mqtt-packet';
import type { Duplex } from 'node:stream';
import { packetFramer } from './packetFramer.ts';
import { parsePacket } from './packetParser.ts';
import { REASON, RETURN_CODE, type ProtocolVersion } from './reasonCodes.ts';
import type { TransportLimits } from './transportLimits.ts';

export type ConnectionRefusal = 'too_large' | 'malformed_packet' | 'protocol_error';

export interface ConnectionHandlers {
  /**
   * One packet, in arrival order. While the promise returned is pending, no other packet is
   * handled and the stream is not read. A handler that throws (or rejects) ends the connection.
   */
  packet(packet: Packet): void | Promise<void>;
  /** The device sent something the server does not accept; the connection is ending. */
  refused(reason: ConnectionRefusal, detail: string): void;
  /** A handler failed (a fault of the server, not of the device); the connection is ending. */
  failed(error: unknown): void;
  /** The connection ended (called once, as soon as it starts closing). */
  ended(): void;
}

export interface MqttConnection {
  readonly remoteAddress: string;
  /** The protocol level of the CONNECT (4 until one arrives). */
  version: ProtocolVersion;
  /** A CONNACK accepted the connection: from then on an MQTT 5 device is told why it is disconnected. */
  accepted: boolean;
  /** The packet as bytes in this connection's protocol version; undefined if it cannot be encoded. */
  encode(packet: Packet): Buffer | undefined;
  /** Writes encoded packet bytes; false once the connection is ending. */
  write(bytes: Buffer): boolean;
  /** Encodes and writes a packet; false if it could not be. */
  send(packet: Packet): boolean;
  /** Bytes written and not yet taken by the network. */
  backlog(): number;
  /** Expects a packet within 1.5 × `seconds` from now on (0: no expectation). */
  keepAlive(seconds: number): void;
  /**
   * Ends the connection: an accepted MQTT 5 device first gets a DISCONNECT with `reasonCode`.
   * What was written is sent before the end (FIN); the connection is then destroyed when the device
   * closes its side, or after `lingerMs`, whatever it still sends read and dropped meanwhile.
   */
  disconnect(reasonCode?: number, lingerMs?: number): void;
  isEnding(): boolean;
  /** Resolves once the stream is closed. */
  closed: Promise<void>;
}

/** The protocol level byte of a CONNECT packet (MQTT 3.1.1 §3.1.2.2), if it can be read. */
function connectLevel(bytes: Buffer): number | undefined {
  let offset = 1;
  while (offset < bytes.length && offset < 5 && (bytes[offset] & 0x80)) offset++;
  offset++; // past the last remaining-length byte
  if (offset + 2 > bytes.length) return undefined;
  const nameLength = bytes.readUInt16BE(offset);
  return bytes[offset + 2 + nameLength];
}

export function mqttConnection(stream: Duplex, remoteAddress: string, limits: TransportLimits, handlers: ConnectionHandlers): MqttConnection {
  const framer = packetFramer(limits.maxPacketBytes);

  let ending = false;
  let busy = false;
  let pausedHere = false;
  let first = true;
  let keepAliveTimer: ReturnType<typeof setTimeout> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => { resolveClosed = resolve; });

  let connectTimer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    handlers.refused('protocol_error', `no CONNECT within ${limits.connectTimeoutMs / 1000} s`);
    end(limits.lingerMs);
  }, limits.connectTimeoutMs);
  connectTimer.unref();

  const connection: MqttConnection = {
    remoteAddress,
    version: 4,
    accepted: false,
    encode(packet) {
      try {
        return generate(packet, { protocolVersion: connection.version });
      } catch {
        return undefined; // mqtt-packet refuses a packet it cannot encode by throwing
      }
    },
    write(bytes) {
      if (ending) return false;
      stream.write(bytes);
      return true;
    },
    send(packet) {
      if (ending) return false;
      const bytes = connection.encode(packet);
      return bytes !== undefined && connection.write(bytes);
    },
    backlog: () => stream.writableLength,
    keepAlive(seconds) {
      clearTimeout(keepAliveTimer);
      keepAliveTimer = undefined;
      if (seconds <= 0 || ending) return;
      keepAliveTimer = setTimeout(function expire() {
        // A device waiting for us (the socket is not being read) is not silent.
        if (busy) keepAliveTimer = setTimeout(expire, seconds * 1500).unref();
        else connection.disconnect(REASON.keepAliveTimeout);
      }, seconds * 1500);
      keepAliveTimer.unref();
    },
    disconnect(reasonCode, lingerMs = limits.lingerMs) {
      if (ending) return;
      if (connection.version === 5 && connection.accepted && reasonCode !== undefined) {
        const bytes = connection.encode({ cmd: 'disconnect', reasonCode });
        if (bytes) stream.write(bytes);
      }
      end(lingerMs);
    },
    isEnding: () => ending,
    closed,
  };

  /** Stops handling; closes now, or ends the stream (what was written is sent first) and destroys it within `lingerMs`. */
  function end(lingerMs = 0) {
    if (ending) return;
    ending = true;
    clearTimeout(connectTimer);
    clearTimeout(keepAliveTimer);
    framer.clear();
    if (lingerMs > 0 && !stream.destroyed) {
      stream.end();
      stream.resume(); // what still comes is read and dropped: closing with unread bytes would reset the connection before the device read ours
      setTimeout(() => stream.destroy(), lingerMs).unref();
    } else {
      stream.destroy();
    }
    handlers.ended();
  }

  const fail = (error: unknown) => {
    if (ending) return;
    handlers.failed(error);
    connection.disconnect(REASON.unspecifiedError);
  };

  const refuse = (reason: ConnectionRefusal, detail: string, reasonCode: number) => {
    if (ending) return;
    handlers.refused(reason, detail);
    connection.disconnect(reasonCode);
  };

  function parse(bytes: Buffer): Packet | undefined {
    // the first packet is read as MQTT 3.1.1; a CONNECT switches the connection to its own version
    const read = parsePacket(bytes, connection.version);
    if ('error' in read) {
      const level = first && bytes[0] >> 4 === 1 ? connectLevel(bytes) : undefined;
      if (level !== undefined && level !== 3 && level !== 4 && level !== 5) {
        // A protocol version we do not speak: refused in the answer its client most likely reads.
        handlers.refused('protocol_error', `protocol level ${level} is not supported`);
        stream.write(level > 5
          ? Buffer.from([0x20, 0x03, 0x00, REASON.unsupportedProtocolVersion, 0x00])
          : Buffer.from([0x20, 0x02, 0x00, RETURN_CODE.unacceptableProtocolVersion]));
        end(limits.lingerMs);
      } else {
        refuse('malformed_packet', read.error.message.slice(0, 100), REASON.malformedPacket);
      }
      return undefined;
    }
    return read.packet;
  }

  function pump() {
    while (!busy && !ending) {
      const frame = framer.next();
      if (!frame) break;
      if (frame.kind === 'too_large') return refuse('too_large', `a packet of ${frame.bytes} bytes is over ${limits.maxPacketBytes}`, REASON.packetTooLarge);
      if (frame.kind === 'malformed') return refuse('malformed_packet', 'the remaining length is not a variable byte integer', REASON.malformedPacket);
      const packet = parse(frame.bytes);
      if (!packet) return;
      if (first) {
        first = false;
        clearTimeout(connectTimer);
        connectTimer = undefined;
      }
      keepAliveTimer?.refresh();
      let outcome: void | Promise<void>;
      try {
        outcome = handlers.packet(packet);
      } catch (error) {
        return fail(error);
      }
      if (outcome) {
        busy = true;
        outcome.then(() => {
          busy = false;
          pump();
        }, fail);
      }
    }
    if (ending) return;
    if (busy && !pausedHere) {
      pausedHere = true;
      stream.pause();
    } else if (!busy && pausedHere) {
      pausedHere = false;
      stream.resume();
    }
  }

  stream.on('data', (chunk: Buffer | string) => {
    if (ending) return;
    framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    pump();
  });
  stream.on('end', () => stream.destroy());
  stream.on('error', () => stream.destroy()); // a reset or broken pipe: the connection is over
  stream.on('close', () => {
    end();
    resolveClosed();
  });
  return connection;
}
