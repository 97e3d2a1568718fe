// Profile rules, where JSON Schema cannot compare two fields: an enabled light sensor's dawn
// threshold is above its dusk threshold (src/schemas/lightSensor.ts, which the profile form
// checks too).
import { RECORD_RULES } from '../../../src/schemas/recordRules.ts';
import { badRequest } from '../../errors.ts';
import type { ModelRules } from './types.ts';

export const profileRules: ModelRules = {
  async beforeWrite(_context, record) {
    const problem = RECORD_RULES.profile(record);
    if (problem) throw badRequest(problem.code, problem.message, problem.field);
  },
};
