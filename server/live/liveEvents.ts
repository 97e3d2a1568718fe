// The live bus: entity updates (subscription `entity_updated`) and record changes of every model
// (`resource_changed`), per tenant. It publishes on mercurius' in-process pubsub; carrying events
// between instances means replacing the pubsub behind this one interface.
import type { PubSub } from 'mercurius';
import { resourceChangedTopic, type ResourceChange } from './resourceEvents.ts';

export const entityUpdatedTopic = (tenantId: string) => `entity_updated:${tenantId}`;

export interface EntityUpdate { id: number; entity_type_id: number; diff: Record<string, unknown>; updated_at: string }

export interface LiveEvents {
  publishEntityUpdate(tenantId: string, update: EntityUpdate): Promise<void>;
  publishResourceChange(tenantId: string, change: ResourceChange): Promise<void>;
}

export function liveEvents(pubsub: () => PubSub): LiveEvents {
  return {
    publishEntityUpdate: async (tenantId, update) => {
      await pubsub().publish({ topic: entityUpdatedTopic(tenantId), payload: { entity_updated: update } });
    },
    publishResourceChange: async (tenantId, change) => {
      await pubsub().publish({ topic: resourceChangedTopic(tenantId, change.resource), payload: { resource_changed: change } });
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance { live: LiveEvents }
}
