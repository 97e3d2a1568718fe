// What the live bus tells subscribers, from the commits: each record change (an entity's also as
// an entity update, which the map listens to), each entity update made outside the resource
// engine (devices, attribute updates, schedulers) and devices' new latest values.
import type { PostCommitBus } from '../events/postCommit.ts';
import type { LiveEvents } from './liveEvents.ts';
import { entityUpdateOf } from './resourceEvents.ts';

export function publishCommitsLive(events: PostCommitBus, live: LiveEvents) {
  events.on('resource.changed', 'live record changes', async ({ tenantId, change }) => {
    const entityUpdate = entityUpdateOf(change);
    await Promise.all([
      live.publishResourceChange(tenantId, change),
      entityUpdate && live.publishEntityUpdate(tenantId, { ...entityUpdate, updated_at: new Date().toISOString() }),
    ]);
  });
  events.on('entity.updated', 'live entity updates', ({ tenantId, update }) => live.publishEntityUpdate(tenantId, update));
  // a device's new latest values, as the writer committed them
  events.on('telemetry.latest', 'live latest values', (changes) => {
    const updatedAt = new Date().toISOString();
    return Promise.all(changes.map((change) => live.publishEntityUpdate(change.tenantId, {
      id: change.entityId, entity_type_id: change.entityTypeId, diff: { telemetry: change.values }, updated_at: updatedAt,
    })));
  });
}
