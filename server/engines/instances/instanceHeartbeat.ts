// This instance among those sharing the database. It registers before any device connects, is
// seen every `everyMs`, and looks for instances not seen for `deadAfterMs` (killed, frozen or cut
// off): the first to find one gives up its device connections, so that its devices read as
// disconnected unless connected elsewhere. An instance found dead while it was only slow registers
// again and ends its device sessions: the devices connect again and are counted afresh.
import type { ConnectivityChange } from '../../db/connectionQueries.ts';
import type { Database } from '../../db/database.ts';
import { instanceSeen, instanceStopped, sweepDeadInstances } from '../../db/instanceQueries.ts';
import { startWorkLoop } from '../../workLoop.ts';

/** How often an instance says it is alive (ms). */
export const HEARTBEAT_MS = 5_000;
/** An instance not seen for this long is dead (ms): four missed heartbeats. */
export const DEAD_AFTER_MS = 20_000;

export interface InstanceHeartbeatOptions {
  instanceId: string;
  /** Devices that became inactive (at `ms`): a dead instance held their only connections. */
  onDisconnected(changes: ConnectivityChange[], ms: number): void;
  /** This instance had been found dead: its device connections were given up. */
  onRegistrationLost(): void;
  onError(error: unknown): void;
  everyMs?: number;
  deadAfterMs?: number;
}

export interface InstanceHeartbeat {
  /** Unregisters (a clean shutdown): what this instance still holds is given up. */
  stop(): Promise<void>;
}

export async function startInstanceHeartbeat(db: Database, options: InstanceHeartbeatOptions): Promise<InstanceHeartbeat> {
  const { instanceId, everyMs = HEARTBEAT_MS, deadAfterMs = DEAD_AFTER_MS } = options;
  await instanceSeen(db, instanceId);
  const loop = startWorkLoop({
    everyMs,
    onError: options.onError,
    work: async () => {
      if (!await instanceSeen(db, instanceId)) options.onRegistrationLost();
      const ms = Date.now();
      const changes = await sweepDeadInstances(db, deadAfterMs, ms);
      if (changes.length > 0) options.onDisconnected(changes, ms);
    },
  });
  return {
    async stop() {
      await loop.stop();
      const ms = Date.now();
      const changes = await instanceStopped(db, instanceId, ms).catch((error: unknown) => {
        options.onError(error);
        return [];
      });
      if (changes.length > 0) options.onDisconnected(changes, ms);
    },
  };
}
