// ThingsBoard's own device SDK (tb-mqtt-client, MQTT 5) replayed with mqtt.js at protocol version
// 5: its connect sequence (subscriptions, then the session limits it waits for), the device tests of
// its `tests/` suite (attribute requests by scope, telemetry and attributes, shared attribute
// updates pushed to a subscribed device) and its examples (a device's own RPC, answering the
// server's, a gateway's attribute request and RPC for a device behind it), against our server.
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueCommands } from '../../server/db/commandQueries.ts';
import type { MqttListener } from '../../server/ingest/mqttListener.ts';
import { connectDevice, demoDevices, startDeviceApp, storedPoints, until, type DemoDevice } from '../support/devices.ts';
import type { TestApp } from './harness.ts';

let t: TestApp;
let listener: MqttListener;
let lamps: DemoDevice[];
let cityGateway: DemoDevice;
let admin: string;
const clients: MqttClient[] = [];

beforeAll(async () => {
  ({ t, listener, lamps, cityGateway } = await startDeviceApp());
  admin = (await t.login('admin@demo.city')).access_token;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await listener?.close();
  await t?.close();
});

/** What one client received, by topic, in order. */
function inbox(client: MqttClient) {
  const received: { topic: string; json: any }[] = [];
  client.on('message', (topic, payload) => received.push({ topic, json: JSON.parse(payload.toString()) }));
  return {
    received,
    next: async (topic: string | RegExp, after = 0) => {
      const matches = () => received.slice(after).find((message) => (typeof topic === 'string' ? message.topic === topic : topic.test(message.topic)));
      await until(() => matches() !== undefined);
      return matches()!.json;
    },
  };
}

/** Connects as tb-mqtt-client does: MQTT 5, QoS 1 subscriptions to its four topics, then getSessionLimits. */
async function sdkDevice(device: DemoDevice) {
  const client = await connectDevice(listener.port, device.token, { protocolVersion: 5, clientId: `tb_${device.id}` });
  clients.push(client);
  const messages = inbox(client);
  const granted = await client.subscribeAsync(['v1/devices/me/attributes', 'v1/devices/me/attributes/response/+', 'v1/devices/me/rpc/request/+', 'v1/devices/me/rpc/response/+'], { qos: 1 });
  expect(granted.map((grant) => grant.qos)).toEqual([1, 1, 1, 1]);
  await client.publishAsync('v1/devices/me/rpc/request/1', JSON.stringify({ method: 'getSessionLimits', params: { timeout: 5000 } }), { qos: 1 });
  const limits = await messages.next('v1/devices/me/rpc/response/1');
  return { client, messages, limits };
}

const graphql = async (query: string, variables: Record<string, unknown> = {}) => (await t.post('/graphql', { query, variables }, admin)).body;

describe("tb-mqtt-client's device exchanges", () => {
  it('connects: its session limits come back as it expects them (no rate limits, the largest message, the in-flight bound)', async () => {
    const { limits } = await sdkDevice(lamps[0]);
    expect(limits).toEqual({ maxPayloadSize: 262_144, maxInflightMessages: 100, rateLimits: { messages: '', telemetryMessages: '', telemetryDataPoints: '' } });
  });

  it('test_request_attributes: shared and client attributes, each scope asked for alone', async () => {
    const device = lamps[1];
    // the suite's set-up: shared attribute "attr" = "hello" and client attribute "atr3" = "value3"
    const shared = await graphql('mutation($id: ID!) { update_shared_attributes(id: $id, attributes: { attr: "hello" }) { shared_attributes } }', { id: device.id });
    expect(shared.data.update_shared_attributes.shared_attributes).toMatchObject({ attr: 'hello' });
    const { client, messages } = await sdkDevice(device);
    await client.publishAsync('v1/devices/me/attributes', JSON.stringify({ atr3: 'value3' }), { qos: 1 });
    await client.publishAsync('v1/devices/me/attributes/request/1', JSON.stringify({ sharedKeys: 'attr' }), { qos: 1 });
    expect(await messages.next('v1/devices/me/attributes/response/1')).toEqual({ shared: { attr: 'hello' } });
    await client.publishAsync('v1/devices/me/attributes/request/2', JSON.stringify({ clientKeys: 'atr3' }), { qos: 1 });
    expect(await messages.next('v1/devices/me/attributes/response/2')).toEqual({ client: { atr3: 'value3' } });
    // server attributes (the platform's own, such as `active`) are never answered
    await client.publishAsync('v1/devices/me/attributes/request/3', JSON.stringify({ clientKeys: 'active,serial' }), { qos: 1 });
    expect(await messages.next('v1/devices/me/attributes/response/3')).toEqual({ client: {} });
  });

  it('test_send_telemetry_and_attr: both acknowledged once stored', async () => {
    const device = lamps[2];
    const { client } = await sdkDevice(device);
    const telemetry = await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 41.9, humidity: 69, enabled: false, currentFirmwareVersion: 'v1.2.2' }), { qos: 1 });
    expect((telemetry as { reasonCode?: number } | undefined)?.reasonCode ?? 0).toBe(0);
    expect((await storedPoints(t, device.id, 'temperature'))[0].value_num).toBe(41.9);
    const attributes = await client.publishAsync('v1/devices/me/attributes', JSON.stringify({ sensorModel: 'DHT-22', atr3: 'value3' }), { qos: 1 });
    expect((attributes as { reasonCode?: number } | undefined)?.reasonCode ?? 0).toBe(0);
    const [row] = await t.db.systemQuery<{ client: Record<string, unknown> }>(sql`SELECT client_attributes AS client FROM entities WHERE id = ${device.id}`);
    expect(row.client).toMatchObject({ sensorModel: 'DHT-22', atr3: 'value3' });
  });

  it('test_subscribe_to_attrs: a shared attribute changed by a user is pushed to the subscribed device, and to no other', async () => {
    const device = lamps[3];
    const { messages } = await sdkDevice(device);
    const other = await sdkDevice(lamps[4]);
    const before = messages.received.length;
    await graphql('mutation($id: ID!) { update_shared_attributes(id: $id, attributes: { attr: "updated" }) { id } }', { id: device.id });
    expect(await messages.next('v1/devices/me/attributes', before)).toEqual({ attr: 'updated' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other.messages.received.filter((message) => message.topic === 'v1/devices/me/attributes')).toEqual([]);
  });
});

describe("tb-mqtt-client's examples", () => {
  it('client_rpc_request: the device asks the time; an unknown method gets an error', async () => {
    const { client, messages } = await sdkDevice(lamps[5]);
    await client.publishAsync('v1/devices/me/rpc/request/2', JSON.stringify({ method: 'getCurrentTime', params: {} }), { qos: 1 });
    expect(Math.abs((await messages.next('v1/devices/me/rpc/response/2')) - Date.now())).toBeLessThan(5_000);
    await client.publishAsync('v1/devices/me/rpc/request/3', JSON.stringify({ method: 'reboot', params: {} }), { qos: 1 });
    expect(await messages.next('v1/devices/me/rpc/response/3')).toEqual({ error: 'Unknown RPC method reboot' });
  });

  it("server-side RPC: the device answers the server's command, which is then ok", async () => {
    const device = lamps[6];
    const { client, messages } = await sdkDevice(device);
    await graphql(`mutation { override_lighting(entity_ids: [${device.id}], level: 30, minutes: 10) { entity_ids } }`);
    const request = await messages.next(/^v1\/devices\/me\/rpc\/request\/\d+$/);
    expect(request).toEqual({ method: 'setDim', params: { level: 30 } });
    const id = messages.received.find((message) => message.topic.startsWith('v1/devices/me/rpc/request/'))!.topic.split('/').pop();
    await client.publishAsync(`v1/devices/me/rpc/response/${id}`, JSON.stringify({ level: 30 }), { qos: 1 });
    await until(async () => (await t.db.systemQuery<{ status: string }>(sql`SELECT status FROM device_commands WHERE id = ${Number(id)}`))[0]?.status === 'ok');
  });

  it('gateway request_attributes, attribute updates and respond_to_rpc: for a device behind the gateway', async () => {
    const [child] = (await demoDevices(t, 'Demo City', 'energy')).filter((device) => device.gatewayName);
    const gateway = await connectDevice(listener.port, cityGateway.token, { protocolVersion: 5 });
    clients.push(gateway);
    const messages = inbox(gateway);
    await gateway.subscribeAsync(['v1/gateway/attributes', 'v1/gateway/attributes/response', 'v1/gateway/rpc'], { qos: 1 });
    await graphql('mutation($id: ID!) { update_shared_attributes(id: $id, attributes: { interval: 60 }) { id } }', { id: child.id });
    // the device has no connection of its own: the update is pushed to its gateway
    expect(await messages.next('v1/gateway/attributes')).toEqual({ device: child.gatewayName, data: { interval: 60 } });
    await gateway.publishAsync('v1/gateway/attributes/request', JSON.stringify({ id: 7, device: child.gatewayName, client: false, key: 'interval' }), { qos: 1 });
    expect(await messages.next('v1/gateway/attributes/response')).toEqual({ id: 7, device: child.gatewayName, value: 60 });

    // a command for the device behind it goes through the gateway; the gateway's answer settles it
    const [command] = await t.db.tenantTx(child.tenantId, (tx) => queueCommands(tx, child.tenantId, [{ entityId: child.id, method: 'reset', params: {}, source: 'user', ttlMs: 60_000 }]));
    expect(await messages.next('v1/gateway/rpc')).toEqual({ device: child.gatewayName, data: { id: command.id, method: 'reset', params: {} } });
    await gateway.publishAsync('v1/gateway/rpc', JSON.stringify({ device: child.gatewayName, id: command.id, data: { success: true } }), { qos: 1 });
    await until(async () => (await t.db.systemQuery<{ status: string }>(sql`SELECT status FROM device_commands WHERE id = ${command.id}`))[0]?.status === 'ok');
  });
});
