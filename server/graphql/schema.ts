// The GraphQL schema (docs/api.md "GraphQL").
export const typeDefs = /* GraphQL */ `
  scalar JSON

  type EntityType { id: ID! name: String! category: String! }
  type Group { id: ID! name: String! }
  type EntityInterface { thingsboard_uuid: String thingsboard_name: String is_gateway: Boolean! fk_gateway_id: ID }

  type Entity {
    id: ID!
    entity_type_id: ID!
    parent_id: ID
    name: JSON!
    attributes: JSON!
    geom: JSON
    level: Int!
    tree_path: String!
    group: Group
    groups: [Group!]!
    entity_type: EntityType!
    interface: EntityInterface!
    updated_at: String!
    children: [Entity!]!
  }

  type EntityTypeGroup { id: ID! name: String! attributes: JSON! }
  type User { id: ID! username: String! email: String! }
  type EntityUpdate { id: ID! diff: JSON! updated_at: String! }

  type Query {
    entity_tree(id: ID, level: Int, depth: Int, type: ID, group: ID): [Entity!]!
    entity_type_group_list: [EntityTypeGroup!]!
    user_list: [User!]!
  }

  type Subscription {
    entity_updated(entity_ids: [ID!], type: ID, conn_id: String): EntityUpdate!
  }
`;
