// Keeps the map's grids (server/services/mapIndexService.ts) current: from this instance's commits,
// and from the live events of the other instances sharing the database (their commits never reach
// this instance's bus, only their entity updates and record changes do).
import type { PostCommitBus } from '../events/postCommit.ts';
import { FLAG_MODELS, type MapIndexService } from '../services/mapIndexService.ts';
import type { ClusterEvent } from './clusterBus.ts';
import type { EntityUpdate } from './liveEvents.ts';

export function keepMapIndexCurrent(index: MapIndexService, events: PostCommitBus) {
  events.on('resource.changed', 'map index', async ({ tenantId, change }) => {
    if (change.resource === 'entity') await index.entityChanged(tenantId, { id: change.id, diff: change.record ?? { deleted: true }, whole: true });
    if (FLAG_MODELS.has(change.resource)) index.flagsChanged(tenantId, change.resource);
    if (change.resource === 'group') index.groupChanged(tenantId, change.id);
  });
  events.on('entity.updated', 'map index', ({ tenantId, update }) => index.entityChanged(tenantId, update));
  events.on('engine.changed', 'map index', ({ tenantId, model }) => {
    if (FLAG_MODELS.has(model)) index.flagsChanged(tenantId, model);
  });
}

/** A live event another instance published (liveEvents.ts topics: `entity_updated:<tenant>`, `resource_changed:<tenant>:<model>`). */
export async function mapIndexHeard(index: MapIndexService, { topic, payload }: ClusterEvent) {
  const [kind, tenantId, model] = topic.split(':');
  if (kind === 'entity_updated' && tenantId) await index.entityChanged(tenantId, (payload as { entity_updated: EntityUpdate }).entity_updated);
  if (kind === 'resource_changed' && tenantId && FLAG_MODELS.has(model)) index.flagsChanged(tenantId, model);
}
