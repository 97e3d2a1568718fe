import { describe, expect, it } from 'vitest';
import type { DeviceIngest, DeviceIdentity } from '../../../server/ingest/deviceIngest.ts';
import type { IngestProblems } from '../../../server/ingest/ingestProblems.ts';
import { devicePublish, type DeviceRequestHandler } from '../../../server/ingest/mqtt/devicePublish.ts';
import type { TelemetryWriter } from '../../../server/telemetry/telemetryWriter.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));
const device = (entityId: number): DeviceIdentity => ({ tenantId: 't', entityId, entityTypeId: 1, isGateway: false, name: `lamp ${entityId}` });
const problems = { report: () => {}, reportAll: () => {} } as unknown as IngestProblems;

describe('devicePublish', () => {
  it('handles many answers to commands at once (they are written together), attribute requests a few at a time', async () => {
    const running = { answers: 0, requests: 0 };
    const finish: (() => void)[] = [];
    const handler: DeviceRequestHandler = {
      handles: () => true,
      async handle(_device, topic) {
        const kind = topic.includes('rpc/response') ? 'answers' : 'requests';
        running[kind]++;
        await new Promise<void>((resolve) => finish.push(resolve));
        return [];
      },
    };
    const receive = devicePublish({} as DeviceIngest, {} as TelemetryWriter, problems, () => handler);
    const received = [
      ...Array.from({ length: 300 }, (_, i) => receive(device(i), `v1/devices/me/rpc/response/${i + 1}`, Buffer.from('{"level":100}'))),
      ...Array.from({ length: 40 }, (_, i) => receive(device(i), `v1/devices/me/attributes/request/${i + 1}`, Buffer.from('{}'))),
    ];
    await tick();
    expect(running).toEqual({ answers: 300, requests: 16 });
    for (let round = 0; finish.length && round < 10; round++) {
      finish.splice(0).forEach((done) => done());
      await tick();
    }
    await Promise.all(received);
    expect(running).toEqual({ answers: 300, requests: 40 });
  });
});
