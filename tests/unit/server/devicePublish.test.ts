import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../server/errors.ts';
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

  it('drops a device\'s attributes during read-only maintenance (MQTT has no 503) and counts them; other failures still fail', async () => {
    const reported: string[] = [];
    const counting = { report: (reason: string) => reported.push(reason), reportAll: () => {} } as unknown as IngestProblems;
    const readOnly = new ApiError(503, 'MAINTENANCE_READ_ONLY', 'read-only');
    const ingest = { attributes: async () => { throw readOnly; } } as unknown as DeviceIngest;
    const receive = devicePublish(ingest, {} as TelemetryWriter, counting, () => undefined);
    await expect(receive(device(1), 'v1/devices/me/attributes', Buffer.from('{"firmware":"2.0"}'))).resolves.toBeDefined();
    expect(reported).toEqual(['read_only']);
    const broken = { attributes: async () => { throw new Error('database gone'); } } as unknown as DeviceIngest;
    await expect(devicePublish(broken, {} as TelemetryWriter, counting, () => undefined)(device(1), 'v1/devices/me/attributes', Buffer.from('{}'))).rejects.toThrow('database gone');
  });
});
