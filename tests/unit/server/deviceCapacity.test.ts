// The open-file limit and the JavaScript heap against MQTT_MAX_CONNECTIONS (server/deviceCapacity.ts):
// one clear warning at start-up and a listener that stops below what they hold.
import { describe, expect, it } from 'vitest';
import { deviceConnectionLimit, HEAP_PER_DEVICE_BYTES, HEAP_RESERVED_BYTES, openFileLimit, RESERVED_DESCRIPTORS } from '../../../server/deviceCapacity.ts';

const MB = 2 ** 20;

const limits = (soft: string, hard: string) => `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files
Max locked memory         8388608              8388608              bytes
`;

describe('the open-file limit', () => {
  it('is the soft limit of /proc/<pid>/limits, none when unlimited or unreadable', () => {
    expect(openFileLimit(limits('20000', '20000'))).toBe(20_000);
    expect(openFileLimit(limits('1024', '1048576'))).toBe(1_024);
    expect(openFileLimit(limits('unlimited', 'unlimited'))).toBeUndefined();
    expect(openFileLimit(undefined)).toBeUndefined();
  });

  it('lets MQTT_MAX_CONNECTIONS devices connect when the open files and the heap have room for them and the rest of the server', () => {
    expect(deviceConnectionLimit(100_000, { fileLimit: 1_048_576, heapLimitBytes: 4_288 * MB })).toEqual({ limit: 100_000 });
    expect(deviceConnectionLimit(100_000, { fileLimit: 100_000 + RESERVED_DESCRIPTORS, heapLimitBytes: HEAP_RESERVED_BYTES + 100_000 * HEAP_PER_DEVICE_BYTES })).toEqual({ limit: 100_000 });
    expect(deviceConnectionLimit(100_000, {})).toEqual({ limit: 100_000 });
  });

  it('below that, lets fewer connect and says so once, with what to raise', () => {
    const byFiles = deviceConnectionLimit(100_000, { fileLimit: 20_000, heapLimitBytes: 4_288 * MB });
    expect(byFiles.limit).toBe(20_000 - RESERVED_DESCRIPTORS);
    expect(byFiles.warning).toBe('18,976 devices can connect at once, not MQTT_MAX_CONNECTIONS=100,000: raise the open-file limit (20000) to 101,024 '
      + '(ulimit -n, systemd LimitNOFILE, docker --ulimit nofile) (docs/operations.md "Devices connected at once") or lower MQTT_MAX_CONNECTIONS.');
    // npm start's heap (--max-old-space-size=512: a heap size limit of 704 MB)
    const byHeap = deviceConnectionLimit(100_000, { fileLimit: 1_048_576, heapLimitBytes: 704 * MB });
    expect(byHeap.limit).toBe(40_960);
    expect(byHeap.warning).toBe('40,960 devices can connect at once, not MQTT_MAX_CONNECTIONS=100,000: raise the JavaScript heap (704 MB) with node --max-old-space-size=1166 '
      + '(docs/operations.md "Devices connected at once") or lower MQTT_MAX_CONNECTIONS.');
    const both = deviceConnectionLimit(100_000, { fileLimit: 20_000, heapLimitBytes: 704 * MB });
    expect(both.limit).toBe(18_976);
    expect(both.warning).toMatch(/^18,976 devices can connect at once, not MQTT_MAX_CONNECTIONS=100,000: raise the open-file limit \(20000\) to 101,024 .* and the JavaScript heap \(704 MB\)/);
    // with as much heap as it asks for, 100,000 fit
    expect(deviceConnectionLimit(100_000, { heapLimitBytes: (1_166 + 192) * MB }).limit).toBe(100_000);
  });
});
