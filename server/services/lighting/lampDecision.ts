// What one lamp must do now: an operator's override while it lasts, else the level its profile
// gives at this instant, at the lamp's place, in the tenant's time zone, with its light sensor's
// reading (src/lighting). Pure: the engine reads the rows and writes the decisions.
import { DEFAULT_CENTER } from '../../../src/schemas/mapConfig.ts';
import { levelAt } from '../../../src/shared/lighting/profileLevel.ts';
import type { LampDecision, LampRow, LightingProfileRow } from '../../db/lightingQueries.ts';

/** The lamp's decision at `at` (ms), or undefined when it follows no profile and has no override. */
export function decideLamp(lamp: LampRow, profile: LightingProfileRow | undefined, at: number, timeZone: string): LampDecision | undefined {
  if (lamp.override_level !== null && lamp.override_until !== null && Date.parse(lamp.override_until) > at) {
    return { entityId: lamp.entity_id, profileId: lamp.profile_id, level: lamp.override_level, reason: 'override', sensorOn: lamp.sensor_on };
  }
  if (!profile) return undefined;
  const decided = levelAt(profile, {
    at: new Date(at),
    latitude: lamp.latitude ?? DEFAULT_CENTER.latitude,
    longitude: lamp.longitude ?? DEFAULT_CENTER.longitude,
    timeZone,
    sensor: lamp.lux === null ? undefined : { lux: lamp.lux, previousOn: lamp.sensor_on ?? undefined },
  });
  return { entityId: lamp.entity_id, profileId: profile.id, level: decided.level, reason: decided.reason, sensorOn: decided.sensorOn ?? lamp.sensor_on };
}

/** A decision differs from the lamp's stored state (a command is due, or only the state to keep). */
export const levelChanged = (lamp: LampRow, decision: LampDecision) => lamp.level !== decision.level;
export const stateChanged = (lamp: LampRow, decision: LampDecision) =>
  levelChanged(lamp, decision) || lamp.reason !== decision.reason || lamp.state_profile_id !== decision.profileId || lamp.sensor_on !== decision.sensorOn;
