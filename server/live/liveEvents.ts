// The live bus: entity updates (subscription `entity_updated`) and record changes of every model
// (`resource_changed`), per tenant. Each event is published on this instance's pubsub (mercurius')
// at once and, when several instances may share the database, sent to the others through the
// cluster bus (clusterBus.ts), whose events arrive here by `receive`.
import type { PubSub } from 'mercurius';
import type { ClusterBus, ClusterEvent } from './clusterBus.ts';
import { resourceChangedTopic, type ResourceChange } from './resourceEvents.ts';

export const entityUpdatedTopic = (tenantId: string) => `entity_updated:${tenantId}`;

export interface EntityUpdate { id: number; entity_type_id: number; diff: Record<string, unknown>; updated_at: string }

export interface LiveEvents {
  publishEntityUpdate(tenantId: string, update: EntityUpdate): Promise<void>;
  publishResourceChange(tenantId: string, change: ResourceChange): Promise<void>;
}

export interface LiveBus extends LiveEvents {
  /** From now on events also go to the other instances. */
  connect(bus: ClusterBus): void;
  /** Tells this instance's subscribers an event another instance published. */
  receive(event: ClusterEvent): void;
}

/** `pubsub`: this instance's, once GraphQL is up (before, no one here can be subscribed). */
export function liveEvents(pubsub: () => PubSub | undefined): LiveBus {
  let cluster: ClusterBus | undefined;
  const publish = async (event: ClusterEvent) => {
    cluster?.send(event);
    await pubsub()?.publish(event);
  };
  return {
    publishEntityUpdate: (tenantId, update) => publish({ topic: entityUpdatedTopic(tenantId), payload: { entity_updated: update } }),
    publishResourceChange: (tenantId, change) => publish({ topic: resourceChangedTopic(tenantId, change.resource), payload: { resource_changed: change } }),
    connect(bus) {
      cluster = bus;
    },
    receive(event) {
      Promise.resolve().then(() => pubsub()?.publish(event)).catch(() => { /* a subscriber's own failure: mercurius reports it */ });
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance { live: LiveEvents }
}
