// The open-file limit against MQTT_MAX_CONNECTIONS (server/fileDescriptors.ts): one clear warning
// at start-up and a listener that stops below the limit.
import { describe, expect, it } from 'vitest';
import { deviceConnectionLimit, openFileLimit, RESERVED_DESCRIPTORS } from '../../../server/fileDescriptors.ts';

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

  it('lets MQTT_MAX_CONNECTIONS devices connect when it has room for them and the rest of the server', () => {
    expect(deviceConnectionLimit(100_000, 1_048_576)).toEqual({ limit: 100_000 });
    expect(deviceConnectionLimit(100_000, 100_000 + RESERVED_DESCRIPTORS)).toEqual({ limit: 100_000 });
    expect(deviceConnectionLimit(100_000, undefined)).toEqual({ limit: 100_000 });
  });

  it('below that, lets fewer connect and says so once, with what to raise', () => {
    const { limit, warning } = deviceConnectionLimit(100_000, 20_000);
    expect(limit).toBe(20_000 - RESERVED_DESCRIPTORS);
    expect(warning).toBe('The open-file limit (20000) lets 18,976 devices connect, not MQTT_MAX_CONNECTIONS=100,000: raise it to 101,024 '
      + '(ulimit -n, systemd LimitNOFILE, docker --ulimit nofile; docs/operations.md "File descriptors") or lower MQTT_MAX_CONNECTIONS.');
  });
});
