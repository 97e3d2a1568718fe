// Whether a user may read the logs of a source: as they may read its records (the model's own read
// rule, x-access), so a notification never tells a user what their screens would not show.
import type { Grants } from '../../../src/schemas/model.ts';
import { actionAllowed } from '../../../src/schemas/model.ts';
import type { LOG_SOURCES } from '../../../src/schemas/enums.ts';
import { schemaOf } from '../../resources/registry.ts';

/** The model whose read rule decides, per source; `system` logs are read where logs are (the log model). */
const SOURCE_MODELS: Record<(typeof LOG_SOURCES)[number], string> = {
  watcher: 'watcher', scheduler: 'scheduler', entity: 'entity', profile: 'profile', system: 'log',
};

/** A source no rule can name (`device`, `user`) reaches nobody. */
export function mayReadLogSource(grants: Grants, source: string): boolean {
  const model = Object.hasOwn(SOURCE_MODELS, source) ? SOURCE_MODELS[source as keyof typeof SOURCE_MODELS] : undefined;
  return model !== undefined && actionAllowed(grants, schemaOf(model), 'read');
}
