// Component rules: a definition is free JSON (each type keeps its own settings), so its size is
// bounded here, where JSON Schema cannot measure it: a board is read whole, with every component.
import { ApiError } from '../../errors.ts';
import type { ModelRules } from './types.ts';

/** The most a component's definition may hold, as JSON text (a long rich text fits with room). */
export const MAX_DEFINITION_CHARACTERS = 262_144;

export const componentRules: ModelRules = {
  async beforeWrite(_context, record) {
    const size = JSON.stringify(record.definition ?? {}).length;
    if (size > MAX_DEFINITION_CHARACTERS) {
      throw new ApiError(400, 'DEFINITION_TOO_LARGE', `definition is too large: at most ${MAX_DEFINITION_CHARACTERS} characters as JSON`, 'definition',
        { limit: MAX_DEFINITION_CHARACTERS });
    }
  },
};
