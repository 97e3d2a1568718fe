// One parser per protocol version shared by every connection (server/ingest/mqtt/packetParser.ts):
// what one connection's frame was, or left wrong, never shows in the next frame of another.
import { generate, type Packet } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { parsePacket } from '../../../server/ingest/mqtt/packetParser.ts';

const connect = (protocolVersion: 4 | 5, username: string) =>
  generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion, clientId: `c-${username}`, clean: true, keepalive: 60, username }, { protocolVersion });
const publish = (protocolVersion: 4 | 5, payload: string) =>
  generate({ cmd: 'publish', topic: 'v1/devices/me/telemetry', payload, qos: 1, messageId: 1, dup: false, retain: false }, { protocolVersion });
const puback = (protocolVersion: 4 | 5, messageId: number, reasonCode?: number) =>
  generate({ cmd: 'puback', messageId, ...(reasonCode === undefined ? {} : { reasonCode }) }, { protocolVersion });
const packetOf = (read: ReturnType<typeof parsePacket>): Packet => {
  if ('error' in read) throw read.error;
  return read.packet;
};

describe('parsePacket', () => {
  it('reads each frame in its connection\'s version, whatever another connection read before', () => {
    // a MQTT 5 CONNECT is read by the parser connections start with (3.1.1) and is read as 5
    expect(packetOf(parsePacket(connect(5, 'token-a'), 4))).toMatchObject({ cmd: 'connect', protocolVersion: 5, username: 'token-a' });
    // the next 3.1.1 frame of another connection is not read as 5 (its payload's first byte taken for properties)
    expect(packetOf(parsePacket(publish(4, '{"a":1}'), 4))).toMatchObject({ cmd: 'publish', payload: Buffer.from('{"a":1}') });
    expect(packetOf(parsePacket(publish(5, '{"b":2}'), 5))).toMatchObject({ cmd: 'publish', payload: Buffer.from('{"b":2}') });
    expect(packetOf(parsePacket(puback(4, 7), 4))).toMatchObject({ cmd: 'puback', messageId: 7 });
    // and a 5 frame is read with its reason code
    expect(packetOf(parsePacket(puback(5, 8, 0x80), 5))).toMatchObject({ cmd: 'puback', messageId: 8, reasonCode: 0x80 });
    expect(packetOf(parsePacket(connect(4, 'token-b'), 4))).toMatchObject({ protocolVersion: 4, username: 'token-b' });
  });

  it('a frame that cannot be read is an error, and the next frame is read afresh', () => {
    const malformed = Buffer.from([0x10, 0x04, 0x00, 0x04, 0x58, 0x58]); // a CONNECT whose protocol name is cut short
    expect('error' in parsePacket(malformed, 4)).toBe(true);
    expect('error' in parsePacket(Buffer.from([0x30]), 4)).toBe(true); // a header alone
    expect(packetOf(parsePacket(puback(4, 9), 4))).toMatchObject({ cmd: 'puback', messageId: 9 });
  });
});
