// The MQTT device transport, protocol by protocol (mqtt.js 5 with MQTT 5, 3.1.1 and 3.1, and a
// bare client for what a library will not send): the CONNECT and its CONNACK in each version's
// codes, QoS 1 and 2 acknowledged once stored (QoS 2 stored once), the packet size limit, session
// take-over, subscriptions to ThingsBoard's topics only, the server's messages to a device
// (publishToDevice) reaching that device alone, the keep alive and connect clocks, and hostile
// input that ends one connection and leaves the server serving the others.
import { generate, type IConnackPacket, type IDisconnectPacket, type IPublishPacket, type ISubackPacket, type Packet } from 'mqtt-packet';
import { sql } from 'drizzle-orm';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceIdentity } from '../../server/ingest/deviceIngest.ts';
import { MAX_PACKET_BYTES, type MqttBroker, type MqttListener } from '../../server/ingest/mqttListener.ts';
import { SUBSCRIBABLE } from '../../server/ingest/mqtt/subscriptions.ts';
import { connectDevice, demoDevices, startDeviceApp, storedPoints, until, type DemoDevice } from '../support/devices.ts';
import { rawDevice, rawMqtt } from '../support/rawMqtt.ts';
import type { TestApp } from './harness.ts';

const CONNECT_TIMEOUT_MS = 800;
const MAX_AWAITING_RELEASE = 150;

let t: TestApp;
let listener: MqttListener;
/** Demo City's devices (lamps, sensors): each test uses its own. */
let city: DemoDevice[];
let facilityLamps: DemoDevice[];
let httpUrl: string;
let broker: MqttBroker;

beforeAll(async () => {
  let lamps: DemoDevice[];
  ({ t, httpUrl, listener, lamps, facilityLamps } = await startDeviceApp({ mqttLimits: { connectTimeoutMs: CONNECT_TIMEOUT_MS, maxAwaitingRelease: MAX_AWAITING_RELEASE } }));
  city = [...lamps, ...await demoDevices(t, 'Demo City', 'environment'), ...await demoDevices(t, 'Demo City', 'parking')];
  broker = t.app.ingestion.broker;
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

const problems = () => t.app.ingestion.problems.totals();
const telemetry = (values: Record<string, unknown>, ts?: number) => JSON.stringify(ts === undefined ? values : { ts, values });

/** Connects like connectDevice, answering the CONNACK too. */
function connectWithConnack(token: string, options: IClientOptions) {
  return new Promise<{ client: MqttClient; connack: IConnackPacket }>((resolve, reject) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${listener.port}`, { username: token, reconnectPeriod: 0, connectTimeout: 5000, ...options });
    client.once('connect', (connack) => resolve({ client, connack }));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}

/** Whether the server still serves devices: a fresh QoS 1 message is stored. */
async function stillServing(device: DemoDevice, key: string) {
  const client = await connectDevice(listener.port, device.token, { protocolVersion: 5 });
  const value = Math.round(Math.random() * 1e6);
  await client.publishAsync('v1/devices/me/telemetry', telemetry({ [key]: value }), { qos: 1 });
  expect((await storedPoints(t, device.id, key)).map((point) => point.value_num)).toContain(value);
  await client.endAsync();
}

describe('CONNECT', () => {
  it('MQTT 5: a device token is accepted, and the CONNACK announces what the server accepts', async () => {
    const lamp = city[0];
    const { client, connack } = await connectWithConnack(lamp.token, { protocolVersion: 5, clientId: '', properties: { sessionExpiryInterval: 3600 } });
    expect(connack).toMatchObject({ reasonCode: 0, sessionPresent: false });
    expect(connack.properties).toMatchObject({
      maximumPacketSize: MAX_PACKET_BYTES, receiveMaximum: 100, topicAliasMaximum: 0, retainAvailable: false,
      wildcardSubscriptionAvailable: true, sharedSubscriptionAvailable: false,
      assignedClientIdentifier: expect.stringMatching(/^terrasight-/), sessionExpiryInterval: 0,
    });
    expect(broker.sessionsOf(lamp.id)).toBe(1);
    await client.endAsync();
    await until(() => broker.sessionsOf(lamp.id) === 0);
  });

  it('the CONNACK of a bare MQTT 5 client: reason 0, no session kept', async () => {
    const { client, connack } = await rawDevice(listener.port, city[0].token, 5);
    expect(connack).toMatchObject({ cmd: 'connack', reasonCode: 0, sessionPresent: false, properties: { maximumPacketSize: MAX_PACKET_BYTES, receiveMaximum: 100 } });
    client.end();
  });

  it('MQTT 3.1 (level 3) and 3.1.1 on the same port, MQTT 5 and 3.1.1 over WebSocket: QoS 1 is stored before its PUBACK', async () => {
    const lamp = city[1];
    const doors = [
      { options: { protocolVersion: 3 as const, protocolId: 'MQIsdp' as const }, url: undefined, value: 31 },
      { options: { protocolVersion: 4 as const }, url: undefined, value: 311 },
      { options: { protocolVersion: 5 as const }, url: undefined, value: 5 },
      { options: { protocolVersion: 5 as const }, url: `ws://${httpUrl}/mqtt`, value: 55 },
      { options: { protocolVersion: 4 as const }, url: `ws://${httpUrl}/mqtt`, value: 44 },
    ];
    for (const [index, door] of doors.entries()) {
      const client = await connectDevice(listener.port, lamp.token, door.options, door.url);
      const ts = 1_767_225_600_000 + index * 60_000;
      await client.publishAsync('v1/devices/me/telemetry', telemetry({ protocol_check: door.value }, ts), { qos: 1 });
      // The PUBACK came: the point is there without waiting.
      expect(await storedPoints(t, lamp.id, 'protocol_check')).toContainEqual(expect.objectContaining({ ts: new Date(ts).toISOString(), value_num: door.value }));
      await client.endAsync();
    }
  });

  it('a missing or unknown token: MQTT 5 reason 134 (bad user name or password), 3.1.1 and 3.1 return code 5', async () => {
    const before = problems().bad_token ?? 0;
    for (const token of [undefined, 'not-a-token-of-anyone']) {
      const v5 = await connectDevice(listener.port, token, { protocolVersion: 5 }).then(() => undefined, (error: { code?: number }) => error);
      expect(v5?.code).toBe(134);
      const v311 = await connectDevice(listener.port, token, { protocolVersion: 4 }).then(() => undefined, (error: { code?: number }) => error);
      expect(v311?.code).toBe(5);
    }
    const { client, connack } = await rawDevice(listener.port, 'not-a-token-of-anyone', 3);
    expect(connack).toMatchObject({ cmd: 'connack', returnCode: 5 });
    await client.closed;
    expect((problems().bad_token ?? 0) - before).toBe(5);
  });

  it('an unsupported protocol level is refused: a newer one with reason 0x84 (MQTT 5 form), an older one with return code 1', async () => {
    for (const [level, expected] of [[6, [0x20, 0x03, 0x00, 0x84, 0x00]], [2, [0x20, 0x02, 0x00, 0x01]]] as const) {
      const client = await rawMqtt(listener.port);
      // CONNECT: protocol name "MQTT", level, flags (clean), keep alive 0, client id "x".
      const body = [0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, level, 0x02, 0x00, 0x00, 0x00, 0x01, 0x78];
      const answer = new Promise<Buffer>((resolve) => client.socket.once('data', resolve));
      client.write(Buffer.from([0x10, body.length, ...body]));
      expect([...(await answer)]).toEqual(expected);
      await client.closed;
    }
  });

  it('a client id over 256 characters: MQTT 5 reason 0x85, 3.1.1 return code 2', async () => {
    const v5 = await connectDevice(listener.port, city[2].token, { protocolVersion: 5, clientId: 'c'.repeat(257) }).then(() => undefined, (error: { code?: number }) => error);
    expect(v5?.code).toBe(0x85);
    const v311 = await connectDevice(listener.port, city[2].token, { protocolVersion: 4, clientId: 'c'.repeat(257) }).then(() => undefined, (error: { code?: number }) => error);
    expect(v311?.code).toBe(2);
    // 256 is fine.
    const fine = await connectDevice(listener.port, city[2].token, { protocolVersion: 5, clientId: 'c'.repeat(256) });
    await fine.endAsync();
  });

  it('a second connection with the same token and client id takes over: the older MQTT 5 session gets DISCONNECT 142', async () => {
    const lamp = city[3];
    const older = await connectDevice(listener.port, lamp.token, { protocolVersion: 5, clientId: 'lamp-takeover' });
    const told = new Promise<number | undefined>((resolve) => older.once('disconnect', (packet: IDisconnectPacket) => resolve(packet.reasonCode)));
    const closed = new Promise<void>((resolve) => older.once('close', () => resolve()));
    const newer = await connectDevice(listener.port, lamp.token, { protocolVersion: 5, clientId: 'lamp-takeover' });
    expect(await told).toBe(142);
    await closed;
    older.end(true);
    expect(broker.sessionsOf(lamp.id)).toBe(1);
    await newer.publishAsync('v1/devices/me/telemetry', telemetry({ after_takeover: 1 }), { qos: 1 });
    expect(await storedPoints(t, lamp.id, 'after_takeover')).toHaveLength(1);
    // Another tenant's device with the same client id takes nothing over.
    const foreign = await connectDevice(listener.port, facilityLamps[3].token, { protocolVersion: 5, clientId: 'lamp-takeover' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(newer.connected).toBe(true);
    await foreign.endAsync();
    await newer.endAsync();
  });
});

describe('PUBLISH', () => {
  it('QoS 2 is stored once even when the PUBLISH comes again before the PUBREL', async () => {
    const lamp = city[4];
    const { client } = await rawDevice(listener.port, lamp.token, 5);
    // No ts: each time it were stored would make a point of its own.
    const publish: IPublishPacket = { cmd: 'publish', topic: 'v1/devices/me/telemetry', payload: Buffer.from('{"qos2_once": 7}'), qos: 2, dup: false, retain: false, messageId: 42 };
    client.send(publish);
    expect(await client.next()).toMatchObject({ cmd: 'pubrec', messageId: 42 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    client.send({ ...publish, dup: true });
    expect(await client.next()).toMatchObject({ cmd: 'pubrec', messageId: 42 }); // sent again, not stored again
    client.send({ cmd: 'pubrel', messageId: 42 });
    expect(await client.next()).toMatchObject({ cmd: 'pubcomp', messageId: 42, reasonCode: 0 });
    expect(await storedPoints(t, lamp.id, 'qos2_once')).toHaveLength(1);
    // The id is free again: the same id now is a new message.
    client.send({ ...publish, payload: Buffer.from('{"qos2_once": 8}') });
    expect(await client.next()).toMatchObject({ cmd: 'pubrec', messageId: 42 });
    expect((await storedPoints(t, lamp.id, 'qos2_once')).map((point) => point.value_num)).toEqual([7, 8]);
    // A PUBREL for an id the server does not hold: MQTT 5 answers 0x92.
    client.send({ cmd: 'pubrel', messageId: 42 });
    client.send({ cmd: 'pubrel', messageId: 42 });
    expect(await client.next()).toMatchObject({ cmd: 'pubcomp', messageId: 42, reasonCode: 0 });
    expect(await client.next()).toMatchObject({ cmd: 'pubcomp', messageId: 42, reasonCode: 0x92 });
    client.end();
  });

  it('a burst of QoS 1 and 2 messages beyond the receive maximum (100) is stored whole, over 3.1.1 and 5', async () => {
    for (const [index, protocolVersion] of ([4, 5] as const).entries()) {
      const device = city[21 + index];
      const client = await connectDevice(listener.port, device.token, { protocolVersion });
      const base = Date.UTC(2026, 0, 2);
      await Promise.all(Array.from({ length: 120 }, (_, n) =>
        client.publishAsync('v1/devices/me/telemetry', telemetry({ burst: n }, base + n * 1000), { qos: n % 3 === 0 ? 1 : 2 })));
      expect(await storedPoints(t, device.id, 'burst')).toHaveLength(120);
      await client.endAsync();
    }
  });

  it('a device holding back more PUBRELs than allowed is disconnected (MQTT 5: 0x93)', async () => {
    const { client } = await rawDevice(listener.port, city[23].token, 5);
    const publish = (messageId: number): IPublishPacket => ({
      cmd: 'publish', topic: 'v1/devices/me/telemetry', payload: Buffer.from(telemetry({ held: messageId }, Date.UTC(2026, 0, 3) + messageId)), qos: 2, dup: false, retain: false, messageId,
    });
    for (let id = 1; id <= MAX_AWAITING_RELEASE; id++) client.send(publish(id));
    for (let id = 1; id <= MAX_AWAITING_RELEASE; id++) expect(await client.next(10_000)).toMatchObject({ cmd: 'pubrec', messageId: id });
    client.send(publish(MAX_AWAITING_RELEASE + 1));
    expect(await client.next()).toMatchObject({ cmd: 'disconnect', reasonCode: 0x93 });
    await client.closed;
  });

  it('a packet over the size limit: MQTT 5 gets DISCONNECT 149, a 3.1.1 connection is closed, others carry on', async () => {
    const before = problems().too_large ?? 0;
    const v5 = await connectDevice(listener.port, city[5].token, { protocolVersion: 5 });
    const told = new Promise<number | undefined>((resolve) => v5.once('disconnect', (packet: IDisconnectPacket) => resolve(packet.reasonCode)));
    // mqtt.js would refuse to send over the announced maximum: the header is written under it.
    const header = generate({ cmd: 'publish', topic: 'v1/devices/me/telemetry', payload: Buffer.alloc(MAX_PACKET_BYTES), qos: 0, dup: false, retain: false }, { protocolVersion: 5 });
    v5.stream.write(header.subarray(0, 64));
    expect(await told).toBe(149);
    v5.end(true);

    const v311 = await connectDevice(listener.port, city[6].token, { protocolVersion: 4 });
    const closed = new Promise<void>((resolve) => v311.once('close', () => resolve()));
    v311.publish('v1/devices/me/telemetry', Buffer.alloc(MAX_PACKET_BYTES, 'a'), { qos: 0 });
    await closed;
    v311.end(true);
    expect((problems().too_large ?? 0) - before).toBe(2);
    await stillServing(city[7], 'after_too_large');
  });

  it('a topic alias (the server announces none) ends an MQTT 5 connection with DISCONNECT 148', async () => {
    const { client } = await rawDevice(listener.port, city[5].token, 5);
    client.send({ cmd: 'publish', topic: 'v1/devices/me/telemetry', payload: Buffer.from('{"a":1}'), qos: 0, dup: false, retain: false, properties: { topicAlias: 1 } });
    expect(await client.next()).toMatchObject({ cmd: 'disconnect', reasonCode: 0x94 });
    await client.closed;
  });
});

describe('SUBSCRIBE', () => {
  it("grants ThingsBoard's device topics at QoS 1 at most and refuses the others: 135 over MQTT 5, 128 over 3.1.1", async () => {
    const lamp = city[8];
    for (const protocolVersion of [5, 4] as const) {
      const client = await connectDevice(listener.port, lamp.token, { protocolVersion });
      const granted = await client.subscribeAsync({ 'v1/devices/me/rpc/request/+': { qos: 2 }, 'v1/devices/me/attributes': { qos: 0 }, 'v1/devices/me/rpc/response/+': { qos: 1 } });
      expect(granted.map((grant) => [grant.topic, grant.qos])).toEqual([
        ['v1/devices/me/rpc/request/+', 1], ['v1/devices/me/attributes', 0], ['v1/devices/me/rpc/response/+', 1],
      ]);
      for (const foreign of ['v1/devices/other/#', '#', 'v1/devices/me/telemetry']) {
        // mqtt.js refuses the promise with the SUBACK.
        const refused = await client.subscribeAsync(foreign, { qos: 1 }).then(() => undefined, (error: { packet?: ISubackPacket }) => error.packet?.granted);
        expect(refused, `${foreign} over ${protocolVersion}`).toEqual([protocolVersion === 5 ? 135 : 128]);
      }
      expect(client.connected).toBe(true);
      await client.unsubscribeAsync('v1/devices/me/attributes');
      expect(broker.subscriptionsOf(lamp.id).sort()).toEqual(['v1/devices/me/rpc/request/+', 'v1/devices/me/rpc/response/+']);
      await client.endAsync();
    }
    expect(problems().refused_subscription).toBeGreaterThanOrEqual(6);
  });
});

describe("the server's messages to a device (publishToDevice)", () => {
  it("reach the device's own subscription only: another device with the same topic names gets nothing", async () => {
    const [lamp, sameTenant, otherTenant] = [city[9], city[10], facilityLamps[9]];
    const subscribed: [number, string][] = [];
    const stop = broker.onSubscribe((device: DeviceIdentity, filter) => { subscribed.push([device.entityId, filter]); });
    const clients = await Promise.all([lamp, sameTenant, otherTenant].map((device) => connectDevice(listener.port, device.token, { protocolVersion: 5 })));
    const received = clients.map(() => [] as { topic: string; payload: string }[]);
    clients.forEach((client, index) => client.on('message', (topic, payload) => received[index].push({ topic, payload: payload.toString() })));
    await Promise.all(clients.map((client) => client.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 })));
    expect(subscribed).toContainEqual([lamp.id, 'v1/devices/me/rpc/request/+']);
    stop();

    const answer = await broker.publishToDevice(lamp.id, 'v1/devices/me/rpc/request/7', JSON.stringify({ method: 'setDim', params: 40 }), { qos: 1 });
    expect(answer).toEqual({ delivered: 1 });
    await until(() => received[0].length === 1);
    expect(received[0]).toEqual([{ topic: 'v1/devices/me/rpc/request/7', payload: '{"method":"setDim","params":40}' }]);
    // A topic none of its subscriptions matches is not sent.
    expect(await broker.publishToDevice(lamp.id, 'v1/devices/me/attributes', '{"a":1}', { qos: 0 })).toEqual({ delivered: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received[0]).toHaveLength(1);
    expect(received[1]).toEqual([]);
    expect(received[2]).toEqual([]);
    await Promise.all(clients.map((client) => client.endAsync()));
  });

  it('QoS 1 counts as delivered once the PUBACK comes; a device without a session or without an acknowledgement counts 0', async () => {
    const lamp = city[11];
    expect(await broker.publishToDevice(lamp.id, 'v1/devices/me/rpc/request/1', '{}', { qos: 1 })).toEqual({ delivered: 0 });
    const { client } = await rawDevice(listener.port, lamp.token, 5);
    client.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'v1/devices/me/rpc/request/+', qos: 1 }] });
    expect(await client.next()).toMatchObject({ cmd: 'suback', granted: [1] });

    let settled = false;
    const answer = broker.publishToDevice(lamp.id, 'v1/devices/me/rpc/request/2', '{"method":"ping"}', { qos: 1 }).finally(() => { settled = true; });
    const publish = await client.next() as IPublishPacket;
    expect(publish).toMatchObject({ cmd: 'publish', topic: 'v1/devices/me/rpc/request/2', qos: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false); // no PUBACK yet
    client.send({ cmd: 'puback', messageId: publish.messageId });
    expect(await answer).toEqual({ delivered: 1 });

    // Withheld: not delivered once the timeout passes.
    const unanswered = await broker.publishToDevice(lamp.id, 'v1/devices/me/rpc/request/3', '{}', { qos: 1, timeoutMs: 300 });
    expect(unanswered).toEqual({ delivered: 0 });
    // An MQTT 5 PUBACK with a failure code: not delivered.
    const refused = broker.publishToDevice(lamp.id, 'v1/devices/me/rpc/request/4', '{}', { qos: 1 });
    await client.next(); // the PUBLISH of request 3
    const fourth = await client.next() as IPublishPacket;
    client.send({ cmd: 'puback', messageId: fourth.messageId, reasonCode: 0x80 });
    expect(await refused).toEqual({ delivered: 0 });
    client.end();
    await until(() => broker.sessionsOf(lamp.id) === 0);
  });

  it("respects an MQTT 5 device's Maximum Packet Size and Receive Maximum", async () => {
    const lamp = city[12];
    const { client } = await rawDevice(listener.port, lamp.token, 5, { properties: { maximumPacketSize: 200, receiveMaximum: 2 } });
    client.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'v1/devices/me/rpc/request/+', qos: 1 }] });
    await client.next();
    expect(await broker.publishToDevice(lamp.id, 'v1/devices/me/rpc/request/1', 'x'.repeat(300), { qos: 0 })).toEqual({ delivered: 0 });
    // Two in flight; the third waits for a PUBACK.
    const answers = [1, 2, 3].map((n) => broker.publishToDevice(lamp.id, `v1/devices/me/rpc/request/${n}`, '{}', { qos: 1, timeoutMs: 3000 }));
    const first = await client.next() as IPublishPacket;
    const second = await client.next() as IPublishPacket;
    await expect(client.next(200)).rejects.toThrow('no packet');
    client.send({ cmd: 'puback', messageId: first.messageId });
    const third = await client.next() as IPublishPacket;
    expect(third.topic).toBe('v1/devices/me/rpc/request/3');
    expect(new Set([first.messageId, second.messageId, third.messageId]).size).toBe(3);
    client.send({ cmd: 'puback', messageId: second.messageId });
    client.send({ cmd: 'puback', messageId: third.messageId });
    expect(await Promise.all(answers)).toEqual([{ delivered: 1 }, { delivered: 1 }, { delivered: 1 }]);
    client.end();
  });

  it('tells connect and disconnect per device', async () => {
    const lamp = city[13];
    const events: string[] = [];
    const stops = [
      broker.onConnect((device) => { if (device.entityId === lamp.id) events.push('connect'); }),
      broker.onDisconnect((device) => { if (device.entityId === lamp.id) events.push('disconnect'); }),
      broker.onConnect(() => { throw new Error('a failing listener harms no one'); }),
    ];
    const client = await connectDevice(listener.port, lamp.token, { protocolVersion: 5 });
    await client.endAsync();
    await until(() => events.length === 2);
    expect(events).toEqual(['connect', 'disconnect']);
    stops.forEach((stop) => stop());
  });
});

describe('clocks', () => {
  it('a device silent for 1.5 × its keep alive is disconnected (MQTT 5: reason 141)', async () => {
    const started = Date.now();
    const { client } = await rawDevice(listener.port, city[14].token, 5, { keepalive: 1 });
    expect(await client.next(3000)).toMatchObject({ cmd: 'disconnect', reasonCode: 0x8d });
    await client.closed;
    const after = Date.now() - started;
    expect(after).toBeGreaterThanOrEqual(1400);
    expect(after).toBeLessThan(3000);
    // A device that pings stays.
    const { client: pinging } = await rawDevice(listener.port, city[14].token, 4, { keepalive: 1 });
    for (let ping = 0; ping < 4; ping++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      pinging.send({ cmd: 'pingreq' });
      expect(await pinging.next()).toMatchObject({ cmd: 'pingresp' });
    }
    expect(pinging.isClosed()).toBe(false);
    pinging.end();
  });

  it('a connection that sends no CONNECT within the connect timeout is closed (slow loris)', async () => {
    const before = problems().protocol_error ?? 0;
    const silent = await rawMqtt(listener.port);
    const trickling = await rawMqtt(listener.port);
    trickling.write(Buffer.from([0x10, 0x7f, 0x00])); // a CONNECT that never completes
    const started = Date.now();
    await Promise.all([silent.closed, trickling.closed]);
    expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS + 1000);
    expect((problems().protocol_error ?? 0) - before).toBeGreaterThanOrEqual(2);
  });
});

describe('hostile input', () => {
  it('a malformed packet closes that connection only', async () => {
    const before = problems().malformed_packet ?? 0;
    const { client } = await rawDevice(listener.port, city[15].token, 4);
    // A PUBLISH whose topic length runs past the packet.
    client.write(Buffer.from([0x30, 0x04, 0xff, 0xff, 0x61, 0x62]));
    await client.closed;
    expect((problems().malformed_packet ?? 0) - before).toBe(1);
    await stillServing(city[15], 'after_malformed');
  });

  it('garbage instead of a CONNECT (random bytes, an HTTP request) is closed', async () => {
    for (const garbage of [randomBytes(4096), randomBytes(3), Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')]) {
      const client = await rawMqtt(listener.port);
      client.write(garbage);
      await client.closed;
    }
    // A valid packet, but not a CONNECT, comes first.
    const early = await rawMqtt(listener.port, 4);
    early.send({ cmd: 'pingreq' });
    await early.closed;
    await stillServing(city[15], 'after_garbage');
  });

  it('random packets after the CONNECT, in each version, end at most their own connection', async () => {
    for (let round = 0; round < 60; round++) {
      const { client } = await rawDevice(listener.port, city[24].token, ([3, 4, 5] as const)[round % 3]);
      for (let n = 0; n < 10 && !client.isClosed(); n++) {
        const body = randomBytes(Math.floor(Math.random() * 40));
        const type = 1 + Math.floor(Math.random() * 15);
        client.write(Buffer.concat([Buffer.from([(type << 4) | (round % 2 ? 0 : Math.floor(Math.random() * 16)), body.length]), body]));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      client.end();
    }
    await stillServing(city[24], 'after_random_packets');
  });

  it('a packet announcing 200 MB is refused from its header: nothing of it is buffered', async () => {
    const before = process.memoryUsage();
    for (const connected of [false, true]) {
      const client = connected ? (await rawDevice(listener.port, city[16].token, 4)).client : await rawMqtt(listener.port, 4);
      // PUBLISH announcing 209,715,200 bytes, then 8 MB of it.
      client.write(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x64]));
      for (let mb = 0; mb < 8 && !client.isClosed(); mb++) client.write(Buffer.alloc(1024 * 1024, 0x61));
      await client.closed;
      client.end();
    }
    const after = process.memoryUsage();
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
    await stillServing(city[16], 'after_200mb');
  });

  it('a huge client id (64 kB) is refused with reason 0x85', async () => {
    const { client, connack } = await rawDevice(listener.port, city[17].token, 5, { clientId: 'h'.repeat(65_535) });
    expect(connack).toMatchObject({ cmd: 'connack', reasonCode: 0x85 });
    await client.closed;
  });

  it('1,000 topic filters in one SUBSCRIBE are each answered; the session keeps at most the offered topics', async () => {
    const lamp = city[18];
    const { client } = await rawDevice(listener.port, lamp.token, 5);
    const offered = [...SUBSCRIBABLE];
    const subscriptions = Array.from({ length: 1000 }, (_, index) => ({
      topic: index % 2 ? offered[index % offered.length] : `v1/devices/${index}/#`, qos: 1 as const,
    }));
    client.send({ cmd: 'subscribe', messageId: 9, subscriptions } as Packet);
    const suback = await client.next() as ISubackPacket;
    expect(suback.granted).toHaveLength(1000);
    expect((suback.granted as number[]).filter((code) => code === 0x87)).toHaveLength(500);
    expect(broker.subscriptionsOf(lamp.id).length).toBeLessThanOrEqual(SUBSCRIBABLE.size);
    client.send({ cmd: 'pingreq' });
    expect(await client.next()).toMatchObject({ cmd: 'pingresp' });
    client.end();
  });
});

describe('a message the database does not take', () => {
  it('MQTT 5 gets PUBACK 0x80 and keeps its connection; MQTT 3.1.1 gets no PUBACK and its connection closes', async () => {
    const [v5Device, v311Device] = [city[19], city[20]];
    const v5 = await connectDevice(listener.port, v5Device.token, { protocolVersion: 5 });
    const v311 = await connectDevice(listener.port, v311Device.token, { protocolVersion: 4 });
    const before = problems().write_failed ?? 0;
    await t.db.systemQuery(sql`ALTER TABLE telemetry RENAME TO telemetry_away`);
    try {
      const refused = await v5.publishAsync('v1/devices/me/telemetry', telemetry({ unstored: 1 }), { qos: 1 }).then(() => undefined, (error: { code?: number }) => error);
      expect(refused?.code).toBe(0x80);
      expect(v5.connected).toBe(true);
      const closed = new Promise<void>((resolve) => v311.once('close', () => resolve()));
      let acknowledged = false;
      v311.publish('v1/devices/me/telemetry', telemetry({ unstored: 2 }), { qos: 1 }, (error) => { acknowledged = !error; });
      await closed;
      expect(acknowledged).toBe(false);
    } finally {
      await t.db.systemQuery(sql`ALTER TABLE telemetry_away RENAME TO telemetry`);
    }
    expect((problems().write_failed ?? 0) - before).toBeGreaterThanOrEqual(2);
    await v5.publishAsync('v1/devices/me/telemetry', telemetry({ stored_again: 3 }), { qos: 1 });
    expect((await storedPoints(t, v5Device.id, 'stored_again')).map((point) => point.value_num)).toEqual([3]);
    await v5.endAsync();
    v311.end(true);
  });
});
