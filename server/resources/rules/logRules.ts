// Log rules: changing a log's status records who acknowledged it (seen) and resolved it (done),
// and when (SPEC §3 log statuses); the first acknowledgement is kept.
import { logHandlingColumns } from '../../db/logQueries.ts';
import type { ModelRules } from './types.ts';

export const logRules: ModelRules = {
  async beforeWrite({ caller }, record, columns) {
    Object.assign(columns, logHandlingColumns(record.status, caller.userId));
  },
};
