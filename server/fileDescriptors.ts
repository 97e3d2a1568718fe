// The open-file limit of the process (`ulimit -n`, systemd's LimitNOFILE, Docker's --ulimit nofile)
// bounds the devices one instance can hold: each MQTT connection is a file descriptor, as is each
// browser's WebSocket, database connection and file being read (docs/operations.md "File
// descriptors"). Past the limit the kernel refuses new sockets; the listener stops below it, so a
// device beyond is refused cleanly and the rest of the server still has descriptors.
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

/** How many devices may connect at once: MQTT_MAX_CONNECTIONS, or fewer when the open-file limit is lower; with the one warning to print then. */
export function deviceConnectionLimit(maxConnections: number, fileLimit: number | undefined): { limit: number; warning?: string } {
  if (fileLimit === undefined || fileLimit >= maxConnections + RESERVED_DESCRIPTORS) return { limit: maxConnections };
  const limit = Math.max(1, fileLimit - RESERVED_DESCRIPTORS);
  return {
    limit,
    warning: `The open-file limit (${fileLimit}) lets ${limit.toLocaleString('en')} devices connect, not MQTT_MAX_CONNECTIONS=${maxConnections.toLocaleString('en')}: `
      + `raise it to ${(maxConnections + RESERVED_DESCRIPTORS).toLocaleString('en')} (ulimit -n, systemd LimitNOFILE, docker --ulimit nofile; docs/operations.md "File descriptors") or lower MQTT_MAX_CONNECTIONS.`,
  };
}
