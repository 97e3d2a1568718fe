// Live entity changes, per tenant, carried by the GraphQL subscription `entity_updated`.
import type { PubSub } from 'mercurius';

export const entityUpdatedTopic = (tenantId: string) => `entity_updated:${tenantId}`;

export interface EntityUpdate { id: number; entity_type_id: number; diff: Record<string, unknown>; updated_at: string }

export interface LiveEvents {
  publishEntityUpdate(tenantId: string, update: EntityUpdate): Promise<void>;
}

export function liveEvents(pubsub: () => PubSub): LiveEvents {
  return {
    publishEntityUpdate: async (tenantId, update) => {
      await pubsub().publish({ topic: entityUpdatedTopic(tenantId), payload: { entity_updated: update } });
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance { live: LiveEvents }
}
