// Whole MQTT packets out of a connection's bytes, refusing an over-long one from its header alone
// (server/ingest/mqtt/packetFramer.ts).
import { generate } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { packetFramer } from '../../../server/ingest/mqtt/packetFramer.ts';

const publish = (payload: string) => generate({ cmd: 'publish', topic: 'v1/devices/me/telemetry', payload, qos: 0, dup: false, retain: false });

describe('packetFramer', () => {
  it('hands out each packet of a read, and one split over reads once it is whole', () => {
    const framer = packetFramer(1024);
    const [a, b, c] = [publish('{"a":1}'), publish('{"b":2}'), publish('x'.repeat(300))];
    framer.push(Buffer.concat([a, b, c.subarray(0, 3)]));
    expect(framer.next()).toEqual({ kind: 'packet', bytes: a });
    expect(framer.next()).toEqual({ kind: 'packet', bytes: b });
    expect(framer.next()).toBeUndefined();
    framer.push(c.subarray(3, 100));
    expect(framer.next()).toBeUndefined();
    framer.push(c.subarray(100));
    expect(framer.next()).toEqual({ kind: 'packet', bytes: c });
    expect(framer.buffered()).toBe(0);
  });

  it('refuses a packet over the limit from its header, before its body arrives', () => {
    const framer = packetFramer(1024);
    // PUBLISH announcing 200 MB: remaining length 209,715,200 as a variable byte integer.
    framer.push(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x64]));
    expect(framer.next()).toEqual({ kind: 'too_large', bytes: 5 + 200 * 1024 * 1024 });
    const justOver = packetFramer(10);
    justOver.push(Buffer.from([0x30, 0x09]));
    expect(justOver.next()).toEqual({ kind: 'too_large', bytes: 11 });
  });

  it('a remaining length of more than four bytes is malformed', () => {
    const framer = packetFramer(1024);
    framer.push(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]));
    expect(framer.next()).toEqual({ kind: 'malformed' });
  });

  it('a packet without a body (PINGREQ) is two bytes', () => {
    const framer = packetFramer(1024);
    framer.push(Buffer.from([0xc0]));
    expect(framer.next()).toBeUndefined();
    framer.push(Buffer.from([0x00, 0xc0, 0x00]));
    expect(framer.next()).toEqual({ kind: 'packet', bytes: Buffer.from([0xc0, 0x00]) });
    expect(framer.next()).toEqual({ kind: 'packet', bytes: Buffer.from([0xc0, 0x00]) });
    expect(framer.next()).toBeUndefined();
  });
});
