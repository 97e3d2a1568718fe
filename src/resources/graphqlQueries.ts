// GraphQL operations the app sends through the data provider's `custom` (meta.gqlQuery).
export const entityTreeQuery = `query EntityTree($id: ID, $level: Int, $depth: Int, $type: ID, $group: ID) {
  entity_tree(id: $id, level: $level, depth: $depth, type: $type, group: $group) { id name level tree_path }
}`;

export const entityTypeGroupListQuery = `query EntityTypeGroupList { entity_type_group_list { id name attributes } }`;

export const userListQuery = `query UserList { user_list { id username email } }`;

export const entityUpdatedSubscription = `subscription EntityUpdated($entity_ids: [ID!], $type: ID, $conn_id: String) {
  entity_updated(entity_ids: $entity_ids, type: $type, conn_id: $conn_id) { id diff updated_at }
}`;

export const resourceChangedSubscription = `subscription ResourceChanged($resource: String!) {
  resource_changed(resource: $resource) { resource action id record }
}`;
