// Lighting profile rules. A lamp, zone, region or group follows one profile at a time: a write that
// names one another profile holds is refused with both names (the unique link indexes are the
// guard against two writes at once: bindings.ts answers them with the same code). And where JSON
// Schema cannot compare two fields: an enabled light sensor's dawn threshold is above its dusk
// threshold (src/schemas/lightSensor.ts, which the profile form checks too).
import { pickLocalized, type LocalizedValue } from '../../../src/shared/i18n/pickLocalized.ts';
import { RECORD_RULES } from '../../../src/schemas/recordRules.ts';
import { takenProfileTarget } from '../../db/profileTargetQueries.ts';
import { ApiError, badRequest } from '../../errors.ts';
import type { ModelRules } from './types.ts';

export const PROFILE_TARGET_TAKEN = 'PROFILE_TARGET_TAKEN';

export const profileTargetTaken = (target?: { field: string; name: string; profile: string }) => target
  ? new ApiError(409, PROFILE_TARGET_TAKEN, `'${target.name}' already follows the lighting profile '${target.profile}'. Take it out of that profile first.`, target.field, { name: target.name, profile: target.profile })
  : new ApiError(409, PROFILE_TARGET_TAKEN, 'One of these already follows another lighting profile. Take it out of that profile first.', 'entity_ids');

export const profileRules: ModelRules = {
  async beforeWrite({ tx }, record, _columns, id) {
    const problem = RECORD_RULES.profile(record);
    if (problem) throw badRequest(problem.code, problem.message, problem.field);
    // on an update, the profile's own targets are not taken
    const taken = await takenProfileTarget(tx, id, (record.entity_ids ?? []) as number[], (record.group_ids ?? []) as number[]);
    if (!taken) return;
    const name = pickLocalized(taken.name as LocalizedValue, 'en') || String(taken.id);
    throw profileTargetTaken({ field: taken.kind === 'entity' ? 'entity_ids' : 'group_ids', name, profile: taken.profile });
  },
};
