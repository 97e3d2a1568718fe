// Component rules: a definition is free JSON (each type keeps its own settings), so its size is
// bounded here, where JSON Schema cannot measure it: a board is read whole, with every component.
// A definition.url naming a board file needs the writer to be able to read that file now, and
// records who set it: the file is shown to the board's users by that user's right
// (boardMediaQueries.ts), which a removed share takes away.
import { boardMediaIdOf } from '../../../src/schemas/boardMedia.ts';
import { BOARD_KIND_NAMES } from '../../../src/schemas/enums.ts';
import { findReadableMedia } from '../../db/boardMediaQueries.ts';
import { ApiError } from '../../errors.ts';
import type { ModelRules } from './types.ts';

const urlOf = (record: Record<string, unknown> | undefined) => (record?.definition as { url?: unknown } | undefined)?.url;

/** The most a component's definition may hold, as JSON text (a long rich text fits with room). */
export const MAX_DEFINITION_CHARACTERS = 262_144;

export const componentRules: ModelRules = {
  async beforeWrite({ tx, caller }, record, columns, _id, previous) {
    const url = urlOf(record);
    if (!previous || url !== urlOf(previous)) {
      columns.urlSetBy = caller.userId;
      const mediaId = boardMediaIdOf(url);
      // a file the writer cannot read is answered as one that does not exist
      if (mediaId && !(await findReadableMedia(tx, mediaId, caller.userId, BOARD_KIND_NAMES))) {
        throw new ApiError(400, 'REFERENCE_NOT_FOUND', `definition.url: ${String(url)} does not exist`, 'definition.url', { id: String(url) });
      }
    }
    const size = JSON.stringify(record.definition ?? {}).length;
    if (size > MAX_DEFINITION_CHARACTERS) {
      throw new ApiError(400, 'DEFINITION_TOO_LARGE', `definition is too large: at most ${MAX_DEFINITION_CHARACTERS} characters as JSON`, 'definition',
        { limit: MAX_DEFINITION_CHARACTERS });
    }
  },
};
