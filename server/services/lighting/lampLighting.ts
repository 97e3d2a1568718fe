// One lighting pass over lamps of a tenant, in its transaction: each lamp gets the level its
// lighting profile gives now (lampDecision.ts); the decisions that changed are kept, each changed
// lamp's shared attribute `dim_level` is set and a `setDim` command queued for it (replacing an
// unanswered one); a lamp whose reported `dim_level` has drifted from its level while nothing is
// on its way to it gets the command again. The lighting engine runs a tenant's tick every minute,
// LAMP_WINDOW lamps per transaction; an ended override runs it for its lamps at once
// (lightingService.ts).
import type { Database, Tx } from '../../db/database.ts';
import { queueCommands, type CommandRow, type NewCommand } from '../../db/commandQueries.ts';
import { setSharedAttributes } from '../../db/deviceAttributeQueries.ts';
import { tenantTimeZone } from '../../db/directoryQueries.ts';
import {
  dropLampStates, endOverrides, finishTick, holdTick, lampsOfTenant, lightingProfiles, writeLampStates,
  type LampDecision, type LampRow, type LampSelection,
} from '../../db/lightingQueries.ts';
import { timeZoneOrUtc } from '../../../src/shared/lighting/localTime.ts';
import { decideLamp, levelChanged, stateChanged } from './lampDecision.ts';

/** The command a lamp gets, and how long it may wait for the lamp. */
export const SET_DIM = 'setDim';
export const COMMAND_TTL_MS = 10 * 60_000;
/** A lamp reporting another level this long after its level was decided has drifted. */
export const DRIFT_AFTER_MS = 2 * 60_000;
/** How often a tenant's lamps are decided (ms). */
export const TICK_MS = 60_000;
/**
 * Lamps read and decided per transaction: a tick of a million lamps is a hundred transactions of
 * a few hundred milliseconds, each statement far inside the time limit, with requests answered
 * between them (the embedded database runs one transaction at a time).
 */
export const LAMP_WINDOW = 10_000;
/** Whether the lamp reports a level other than its own, long enough after it was decided, with nothing on its way. */
export function drifted(lamp: LampRow, at: number): boolean {
  if (lamp.level === null || lamp.since === null || lamp.pending_command) return false;
  if (lamp.reported_level === lamp.level) return false;
  return at - Date.parse(lamp.since) >= DRIFT_AFTER_MS;
}

/** One lighting pass over the selected lamps in `tx`: decisions kept, commands queued; answers the commands to send and the lamps read. */
export async function lightLamps(tx: Tx, tenantId: string, at: number, selection: LampSelection): Promise<{ queued: CommandRow[]; lamps: LampRow[] }> {
  const zone = timeZoneOrUtc(await tenantTimeZone(tx));
  const [lamps, profiles] = await Promise.all([lampsOfTenant(tx, tenantId, selection), lightingProfiles(tx)]);
  const changed: LampDecision[] = [];
  const commands: NewCommand[] = [];
  const unsteered: number[] = [];
  const overridesOver: number[] = [];
  for (const lamp of lamps) {
    if (lamp.override_until !== null && Date.parse(lamp.override_until) <= at) overridesOver.push(lamp.entity_id);
    const decision = decideLamp(lamp, lamp.profile_id === null ? undefined : profiles.get(lamp.profile_id), at, zone);
    if (!decision) {
      if (lamp.level !== null) unsteered.push(lamp.entity_id);
      continue;
    }
    if (stateChanged(lamp, decision)) changed.push(decision);
    if (levelChanged(lamp, decision) || drifted(lamp, at)) {
      commands.push({ entityId: lamp.entity_id, method: SET_DIM, params: { level: decision.level }, source: decision.reason === 'override' ? 'override' : 'lighting', ttlMs: COMMAND_TTL_MS });
    }
  }
  await endOverrides(tx, overridesOver);
  await writeLampStates(tx, tenantId, changed);
  await dropLampStates(tx, unsteered);
  await setSharedAttributes(tx, tenantId, commands.map((command) => ({ entityId: command.entityId, attributes: { dim_level: command.params.level } })));
  return { queued: await queueCommands(tx, tenantId, commands), lamps };
}

/**
 * A tenant's tick at `at`: its lamps a window at a time, each window a transaction that keeps the
 * tick claimed; the next tick is set after the last. A tick cut short is run whole again by
 * whoever claims it next: lamps already decided then change nothing. Answers how many commands were
 * queued. `between` is awaited before each window after the first (server/foreground.ts).
 */
export async function lightTenant(db: Database, tenantId: string, at: number, { windowSize = LAMP_WINDOW, between }: { windowSize?: number; between?: () => Promise<void> } = {}): Promise<number> {
  let queued = 0;
  for (let after = 0; ;) {
    if (after) await between?.();
    const window = await db.tenantTx(tenantId, async (tx) => {
      await holdTick(tx, tenantId);
      return lightLamps(tx, tenantId, at, { after, limit: windowSize });
    });
    queued += window.queued.length;
    if (window.lamps.length < windowSize) break;
    after = window.lamps[window.lamps.length - 1].entity_id;
  }
  await db.tenantTx(tenantId, (tx) => finishTick(tx, tenantId, (Math.floor(at / TICK_MS) + 1) * TICK_MS));
  return queued;
}
