// What a device session may subscribe to and what it did: ThingsBoard's device API topics only,
// granted at QoS 0 or 1. A session therefore holds at most one subscription per topic of
// SUBSCRIBABLE, however many filters its SUBSCRIBE packets name. Devices share topic names ("me"),
// so nothing one device publishes is ever sent to another: what reaches a subscription comes from
// the server (publishToDevice), for that device alone.
import type { ISubscription } from 'mqtt-packet';
import { REASON, SUBACK_FAILURE, type ProtocolVersion } from './reasonCodes.ts';
import { isTopicFilter, topicMatches } from './topicFilter.ts';

/** Topic filters a device may subscribe to (ThingsBoard's device and gateway API). */
export const SUBSCRIBABLE: ReadonlySet<string> = new Set([
  'v1/devices/me/attributes',
  'v1/devices/me/attributes/response/+',
  'v1/devices/me/rpc/request/+',
  'v1/devices/me/rpc/response/+',
  'v1/gateway/attributes',
  'v1/gateway/attributes/response',
  'v1/gateway/rpc',
]);

/** The highest QoS granted: the server sends at most QoS 1. */
const MAX_GRANTED_QOS = 1;

export interface Subscribed {
  /** Per requested filter, in order: the granted QoS or the refusal code (SUBACK's payload). */
  codes: number[];
  /** Filters now subscribed, once each. */
  granted: string[];
  /** Filters refused. */
  refused: string[];
}

export interface Delivery {
  qos: 0 | 1;
  /** MQTT 5 subscription identifiers of the matching subscriptions. */
  identifiers: number[];
}

export interface SessionSubscriptions {
  subscribe(requests: ISubscription[], identifier: number | undefined, version: ProtocolVersion): Subscribed;
  /** UNSUBACK's reason codes (MQTT 5). */
  unsubscribe(filters: string[]): number[];
  /** How a message to `topic` is delivered to this session, or undefined when no subscription matches. */
  match(topic: string): Delivery | undefined;
  filters(): string[];
}

function refusal(filter: string, version: ProtocolVersion): number {
  if (version !== 5) return SUBACK_FAILURE;
  if (!isTopicFilter(filter)) return REASON.topicFilterInvalid;
  if (filter.startsWith('$share/')) return REASON.sharedSubscriptionsNotSupported;
  return REASON.notAuthorized;
}

export function sessionSubscriptions(): SessionSubscriptions {
  const held = new Map<string, { qos: 0 | 1; identifier?: number }>();
  return {
    subscribe(requests, identifier, version) {
      const codes: number[] = [];
      const granted = new Set<string>();
      const refused: string[] = [];
      for (const { topic, qos } of requests) {
        if (!SUBSCRIBABLE.has(topic)) {
          codes.push(refusal(topic, version));
          refused.push(topic);
          continue;
        }
        const grantedQos = Math.min(qos, MAX_GRANTED_QOS) as 0 | 1;
        held.set(topic, { qos: grantedQos, identifier });
        granted.add(topic);
        codes.push(grantedQos);
      }
      return { codes, granted: [...granted], refused };
    },
    unsubscribe: (filters) => filters.map((filter) => (held.delete(filter) ? REASON.success : REASON.noSubscriptionExisted)),
    match(topic) {
      let delivery: Delivery | undefined;
      for (const [filter, subscription] of held) {
        if (!topicMatches(filter, topic)) continue;
        delivery ??= { qos: 0, identifiers: [] };
        if (subscription.qos > delivery.qos) delivery.qos = subscription.qos;
        if (subscription.identifier !== undefined) delivery.identifiers.push(subscription.identifier);
      }
      return delivery;
    },
    filters: () => [...held.keys()],
  };
}
