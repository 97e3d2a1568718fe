// refine LiveProvider over the live connection: `entities` updates come from the
// `entity_updated` subscription (SPEC §4); a model resource's changes from `resource_changed`.
import type { LiveEvent, LiveProvider } from '@refinedev/core';
import { entityUpdatedSubscription, resourceChangedSubscription } from './queries.ts';
import { modelResourceOf } from '../resources/modelResources.ts';
import { liveConnection } from './liveConnection.ts';

interface EntityUpdatedData {
  entity_updated: { id: string; diff: Record<string, unknown>; updated_at: string };
}

interface ResourceChangedData {
  resource_changed: { resource: string; action: 'created' | 'updated' | 'deleted'; id: string; record: Record<string, unknown> | null; notify: boolean };
}

export const liveProvider: LiveProvider = {
  subscribe({ channel, params, callback }) {
    const resource = channel.startsWith('resources/') ? channel.slice('resources/'.length) : '';
    if (modelResourceOf(resource)) {
      return liveConnection.subscribe<ResourceChangedData>(
        { query: resourceChangedSubscription, variables: { resource } },
        ({ resource_changed: change }) => callback({
          channel, type: change.action as LiveEvent['type'], payload: { ids: [change.id], id: change.id, record: change.record, notify: change.notify }, date: new Date(),
        }),
      );
    }
    if (channel !== 'resources/entities') return () => undefined;
    const ids = params?.ids?.map(String);
    return liveConnection.subscribe<EntityUpdatedData>(
      { query: entityUpdatedSubscription, variables: { entity_ids: ids } },
      (data) => callback({ channel, type: 'updated', payload: data.entity_updated, date: new Date(data.entity_updated.updated_at) }),
    );
  },
  unsubscribe(subscription: () => void) {
    subscription();
  },
};
