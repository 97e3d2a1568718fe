// The live subscribers of a cluster run (scripts/clusterRun.ts): graphql-ws clients through the
// balancer, each subscribed to `entity_updated` of a few devices and reconnecting (and subscribing
// again) by themselves, wherever the balancer sends them. Records when each was connected and
// which `seq` values it heard of which device, and when.
import { createClient, type Client } from 'graphql-ws';
import { closeSpan, openSpan, type Heard, type Span } from './clusterReport.ts';

export interface Subscriber {
  entities: number[];
  spans: Span[];
  /** What was heard, by entity id, in the order heard. */
  heard: Map<number, Heard[]>;
}

export interface Subscribers {
  subscribers: Subscriber[];
  close(): Promise<void>;
}

type EntityUpdate = { id: string; diff: { telemetry?: { seq?: { value: number } } } };

export function startSubscribers(socketUrl: string, token: string, entityGroups: number[][]): Subscribers {
  const clients: Client[] = [];
  const subscribers = entityGroups.map((entities): Subscriber => {
    const subscriber: Subscriber = { entities, spans: [], heard: new Map() };
    const client = createClient({
      url: socketUrl, connectionParams: { authorization: `Bearer ${token}` }, lazy: false,
      retryAttempts: Number.MAX_SAFE_INTEGER, shouldRetry: () => true, retryWait: () => new Promise((resolve) => setTimeout(resolve, 250)),
      on: {
        connected: () => openSpan(subscriber.spans),
        closed: () => closeSpan(subscriber.spans),
      },
    });
    clients.push(client);
    client.subscribe({ query: `subscription { entity_updated(entity_ids: [${entities.map((id) => `"${id}"`).join(',')}]) { id diff } }` }, {
      next: (value) => {
        const update = (value.data as { entity_updated?: EntityUpdate } | undefined)?.entity_updated;
        const seq = update?.diff.telemetry?.seq?.value;
        if (!update || typeof seq !== 'number') return;
        const entity = Number(update.id);
        const list = subscriber.heard.get(entity) ?? [];
        list.push({ seq, at: Date.now() });
        subscriber.heard.set(entity, list);
      },
      error: () => {},
      complete: () => {},
    });
    return subscriber;
  });
  return {
    subscribers,
    close: async () => { await Promise.all(clients.map((client) => client.dispose())); },
  };
}
