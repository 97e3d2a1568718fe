// refine LiveProvider over the live connection: `entities` updates come from the
// `entity_updated` subscription (SPEC §4).
import type { LiveProvider } from '@refinedev/core';
import { entityUpdatedSubscription } from '../resources/graphqlQueries.ts';
import { liveConnection } from './liveConnection.ts';

interface EntityUpdatedData {
  entity_updated: { id: string; diff: Record<string, unknown>; updated_at: string };
}

export const liveProvider: LiveProvider = {
  subscribe({ channel, params, callback }) {
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
