// Board rules: a deleted board takes its shares with it, and the components it leaves on no board.
import { dropBoardLeftovers } from '../../db/boardQueries.ts';
import type { ModelRules } from './types.ts';

export const boardRules: ModelRules = {
  async afterDelete({ tx, caller }, _id, record) {
    await dropBoardLeftovers(tx, caller.tenantId, String(record.resource_uuid));
  },
};
