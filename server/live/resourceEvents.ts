// Changes of model records, per tenant and model, carried by the GraphQL subscription
// `resource_changed(resource)`. The record is the full one; each subscriber gets it filtered
// by its own permissions (server/resources/resourceAccess.ts, asked by server/graphql/resourceGraphql.ts).

export const resourceChangedTopic = (tenantId: string, resource: string) => `resource_changed:${tenantId}:${resource}`;

export interface ResourceChange {
  resource: string;
  action: 'created' | 'updated' | 'deleted';
  id: number;
  /** The record after the change; null when deleted. */
  record: Record<string, unknown> | null;
  /** When deleted: the record as it was (for this server's own listeners; never sent to clients). */
  removed?: Record<string, unknown>;
  /** For owner-scoped models: the user the record belongs to. */
  owner?: string;
  /**
   * For granted models (boards): the users who held a grant on the record before or after the
   * change (lower-case ids). Only they hear of it, each as their own read answers it now: one who
   * lost the record hears it deleted.
   */
  audience?: string[];
  /** The users for whom the change is an in-app notification (an engine's log their notification rules ask for). */
  notify?: string[];
}

/** The fields of an entity the map shows, carried to `entity_updated` subscribers when it changes. */
const MAP_FIELDS = ['name', 'attributes', 'geom', 'level', 'parent_id', 'group_ids', 'entity_type_id'] as const;

/**
 * The `entity_updated` payload of a change to an entity through the resource engine (studio
 * forms, the map's editors): the map fields of the record, or `deleted` when it is gone.
 */
export function entityUpdateOf(change: ResourceChange): { id: number; entity_type_id: number; diff: Record<string, unknown> } | undefined {
  if (change.resource !== 'entity') return undefined;
  if (!change.record) return { id: change.id, entity_type_id: Number(change.removed?.entity_type_id), diff: { deleted: true } };
  const diff = Object.fromEntries(MAP_FIELDS.filter((field) => field in change.record!).map((field) => [field, change.record![field]]));
  return { id: change.id, entity_type_id: Number(change.record.entity_type_id), diff };
}
