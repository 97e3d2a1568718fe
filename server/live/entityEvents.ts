// Topic names of live entity changes, per tenant, carried by mercurius' pub/sub.
export const entityUpdatedTopic = (tenantId: string) => `entity_updated:${tenantId}`;

export interface EntityUpdate { id: number; entity_type_id: number; diff: Record<string, unknown>; updated_at: string }
