// GET /map-clusters follows a device's connection: a street lamp connecting over MQTT counts as
// connected in its cluster, and as not connected once it leaves; another tenant's counts stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttListener } from '../../server/ingest/mqttListener.ts';
import { DEVICE_FLAGS, MAX_CLUSTER_ZOOM } from '../../src/schemas/mapClusters.ts';
import { connectDevice, startDeviceApp, type DemoDevice } from '../support/devices.ts';
import type { TestApp } from './harness.ts';

let t: TestApp;
let listener: MqttListener;
let lamps: DemoDevice[];
let admin: string;
let facility: string;

beforeAll(async () => {
  ({ t, listener, lamps } = await startDeviceApp());
  admin = (await t.login('admin@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

const WORLD = 'zoom=2&west=-180&south=-85&east=180&north=85';
const offline = (body: { clusters: number[][]; points: number[][] }) =>
  body.clusters.reduce((sum, cluster) => sum + cluster[4], 0) + body.points.filter((point) => point[5] & DEVICE_FLAGS.offline).length;

describe('GET /map-clusters and device connections', () => {
  it('counts a lamp connected while it is, and not connected once it leaves', async () => {
    const entity = (await t.get(`/entity/${lamps[0].id}`, admin)).body;
    const [lng, lat] = entity.geom.coordinates;
    const flagsOfLamp = async () => {
      const { body } = await t.get(`/map-clusters?zoom=${MAX_CLUSTER_ZOOM + 2}&west=${lng - 0.0005}&south=${lat - 0.0005}&east=${lng + 0.0005}&north=${lat + 0.0005}`, admin);
      return body.points.find((point: number[]) => point[0] === lamps[0].id)?.[5] as number;
    };
    const before = offline((await t.get(`/map-clusters?${WORLD}`, admin)).body);
    const wasOffline = ((await flagsOfLamp()) & DEVICE_FLAGS.offline) !== 0;
    const theirs = (await t.get(`/map-clusters?${WORLD}`, facility)).body;

    const client = await connectDevice(listener.port, lamps[0].token);
    await expect.poll(async () => (await flagsOfLamp()) & DEVICE_FLAGS.offline).toBe(0);
    client.end(true);
    await expect.poll(async () => (await flagsOfLamp()) & DEVICE_FLAGS.offline).toBe(DEVICE_FLAGS.offline);
    expect(offline((await t.get(`/map-clusters?${WORLD}`, admin)).body)).toBe(before + (wasOffline ? 0 : 1));
    expect((await t.get(`/map-clusters?${WORLD}`, facility)).body).toEqual(theirs);
  });
});
