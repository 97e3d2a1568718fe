// Changes of model records, per tenant and model, carried by the GraphQL subscription
// `resource_changed(resource)`. The record is the full one; each subscriber gets it filtered
// by its own permissions (server/resources/resourceGraphql.ts).

export const resourceChangedTopic = (tenantId: string, resource: string) => `resource_changed:${tenantId}:${resource}`;

export interface ResourceChange {
  resource: string;
  action: 'created' | 'updated' | 'deleted';
  id: number;
  /** The record after the change; null when deleted. */
  record: Record<string, unknown> | null;
  /** For owner-scoped models: the user the record belongs to. */
  owner?: string;
}
