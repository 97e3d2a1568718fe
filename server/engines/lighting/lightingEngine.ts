// The lighting engine: every minute each tenant's lamps get the level their lighting profile gives
// now, a window of lamps per transaction of the tenant (server/services/lighting/lampLighting.ts).
// A tenant's tick is claimed (SKIP LOCKED, a claim that lapses), so several instances share
// tenants and a dead instance's tick is taken by another. On commit the commands are announced,
// and the instance holding each lamp's connection sends them (server/ingest/deviceCommands.ts).
import type { Database } from '../../db/database.ts';
import { claimLightingTicks } from '../../db/lightingQueries.ts';
import { lightTenant } from '../../services/lighting/lampLighting.ts';
import { startWorkLoop } from '../../workLoop.ts';

const TENANTS_PER_PASS = 20;

export interface LightingEngineOptions {
  onError(error: unknown): void;
  everyMs?: number;
  /** The clock (tests). */
  now?: () => number;
  /** Awaited between a tick's windows (server/foreground.ts). */
  yieldTo?: () => Promise<void>;
}

export interface LightingEngine {
  /** One pass now (tests, benchmarks); answers when it is done. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

export function startLightingEngine(db: Database, options: LightingEngineOptions): LightingEngine {
  const now = options.now ?? Date.now;
  const pass = async () => {
    const tenants = await claimLightingTicks(db, TENANTS_PER_PASS);
    for (const tenantId of tenants) {
      try {
        await lightTenant(db, tenantId, now(), { between: options.yieldTo });
      } catch (error) {
        options.onError(error); // the window under way rolled back: the claim lapses and the tick is run again
      }
    }
    return tenants.length === TENANTS_PER_PASS;
  };
  const loop = startWorkLoop({ everyMs: options.everyMs ?? 5_000, onError: options.onError, work: pass });
  return { runOnce: async () => { await pass(); }, stop: () => loop.stop() };
}
