// What bounds the devices one instance can hold at once (docs/operations.md "Devices connected at
// once"): the open-file limit of the process (`ulimit -n`, systemd's LimitNOFILE, Docker's --ulimit
// nofile) — each MQTT connection is a file descriptor, as is each browser's WebSocket, database
// connection and file being read — and the JavaScript heap, which holds each device's session.
// Past either the process would fail (the kernel refuses new sockets; V8 ends the process when its
// heap is full); the listener stops below both, so a device beyond is refused cleanly and the rest
// of the server keeps its descriptors and memory.
import { readFileSync } from 'node:fs';

/** MQTT_MAX_CONNECTIONS unless set. */
export const DEFAULT_MQTT_MAX_CONNECTIONS = 100_000;

/** Descriptors kept for everything but device connections. */
export const RESERVED_DESCRIPTORS = 1_024;

/** The soft limit on open files, from a `/proc/<pid>/limits` text; undefined when it says none or cannot be read. */
export function openFileLimit(limits: string | undefined): number | undefined {
  const match = /^Max open files\s+(\d+|unlimited)\s/m.exec(limits ?? '');
  return match && match[1] !== 'unlimited' ? Number(match[1]) : undefined;
}

/** This process's limits (Linux); undefined elsewhere. */
export function ownLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * What the server keeps of its JavaScript heap for everything but device sessions (the young
 * generation, the server's own data and a flood's garbage), and what a connected device holds
 * there: ~6.5 KB measured for an idle session (bench/README.md "Many devices connected"), with room
 * for one that reports.
 */
export const HEAP_RESERVED_BYTES = 384 * 2 ** 20;
export const HEAP_PER_DEVICE_BYTES = 8 * 2 ** 10;

const count = (n: number) => n.toLocaleString('en');

/** The `--max-old-space-size` (MB) under which `devices` connected at once fit in the heap. */
export const heapNeededMb = (devices: number) => Math.ceil((HEAP_RESERVED_BYTES + devices * HEAP_PER_DEVICE_BYTES) / 2 ** 20);

/**
 * How many devices may connect at once: MQTT_MAX_CONNECTIONS, or fewer when the open-file limit or
 * the JavaScript heap (V8's heap size limit) holds fewer — beyond, the process would run out of
 * sockets or memory; with the one warning to print then, saying what to raise.
 */
export function deviceConnectionLimit(maxConnections: number, { fileLimit, heapLimitBytes }: { fileLimit?: number; heapLimitBytes?: number }): { limit: number; warning?: string } {
  const byFiles = fileLimit === undefined ? Infinity : Math.max(1, fileLimit - RESERVED_DESCRIPTORS);
  const byHeap = heapLimitBytes === undefined ? Infinity : Math.max(1, Math.floor((heapLimitBytes - HEAP_RESERVED_BYTES) / HEAP_PER_DEVICE_BYTES));
  const limit = Math.min(maxConnections, byFiles, byHeap);
  if (limit === maxConnections) return { limit };
  const raise: string[] = [];
  if (byFiles < maxConnections) {
    raise.push(`the open-file limit (${fileLimit}) to ${count(maxConnections + RESERVED_DESCRIPTORS)} (ulimit -n, systemd LimitNOFILE, docker --ulimit nofile)`);
  }
  if (byHeap < maxConnections) {
    raise.push(`the JavaScript heap (${count(Math.round(heapLimitBytes! / 2 ** 20))} MB) with node --max-old-space-size=${heapNeededMb(maxConnections)}`);
  }
  return {
    limit,
    warning: `${count(limit)} devices can connect at once, not MQTT_MAX_CONNECTIONS=${count(maxConnections)}: raise ${raise.join(' and ')} `
      + '(docs/operations.md "Devices connected at once") or lower MQTT_MAX_CONNECTIONS.',
  };
}
