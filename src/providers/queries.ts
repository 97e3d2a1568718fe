// The live provider's GraphQL subscriptions (refine's liveProvider).
export const entityUpdatedSubscription = `subscription EntityUpdated($entity_ids: [ID!], $type: ID, $conn_id: String) {
  entity_updated(entity_ids: $entity_ids, type: $type, conn_id: $conn_id) { id diff updated_at }
}`;

export const resourceChangedSubscription = `subscription ResourceChanged($resource: String!) {
  resource_changed(resource: $resource) { resource action id record notify }
}`;
