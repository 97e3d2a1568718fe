// One lighting pass over a tenant's lamps, in its transaction: each lamp gets the level its
// lighting profile gives now (lampDecision.ts); the decisions that changed are kept, each changed
// lamp's shared attribute `dim_level` is set and a `setDim` command queued for it (replacing an
// unanswered one); a lamp whose reported `dim_level` has drifted from its level while nothing is
// on its way to it gets the command again. The lighting engine runs it every minute; an ended
// override runs it for its lamps at once (lightingService.ts).
import type { Tx } from '../../db/database.ts';
import { queueCommands, type CommandRow, type NewCommand } from '../../db/commandQueries.ts';
import { setSharedAttributes } from '../../db/deviceAttributeQueries.ts';
import { tenantTimeZone } from '../../db/directoryQueries.ts';
import {
  dropLampStates, endOverrides, finishTick, lampsOfTenant, lightingProfiles, writeLampStates,
  type LampDecision, type LampRow,
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
/** Whether the lamp reports a level other than its own, long enough after it was decided, with nothing on its way. */
export function drifted(lamp: LampRow, at: number): boolean {
  if (lamp.level === null || lamp.since === null || lamp.pending_command) return false;
  if (lamp.reported_level === lamp.level) return false;
  return at - Date.parse(lamp.since) >= DRIFT_AFTER_MS;
}

/**
 * One tick of a tenant: decisions kept, commands queued; answers the commands to send. With `only`,
 * just those lamps are decided (an ended override) and the tenant's next tick stays when it was.
 */
export async function lightTenant(tx: Tx, tenantId: string, at: number, only?: number[]): Promise<CommandRow[]> {
  const zone = timeZoneOrUtc(await tenantTimeZone(tx));
  const [lamps, profiles] = await Promise.all([lampsOfTenant(tx, tenantId, only), lightingProfiles(tx)]);
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
  const queued = await queueCommands(tx, tenantId, commands);
  if (!only) await finishTick(tx, tenantId, (Math.floor(at / TICK_MS) + 1) * TICK_MS);
  return queued;
}
