// The GraphQL schema (docs/api.md "GraphQL"). The entity's own fields are typed from its schema
// (src/schemas/entityJson.ts ENTITY_READ_FIELDS); what reads join to them is declared here.
import { entitySchema } from '../../src/schemas/entity.ts';
import { ENTITY_READ_FIELDS } from '../../src/schemas/entityJson.ts';
import { graphqlReadType } from '../../src/schemas/graphqlOperations.ts';
import type { FieldSchema } from '../../src/schemas/model.ts';

const entityProperties: Readonly<Record<string, FieldSchema>> = entitySchema.properties;
const entityFields = ENTITY_READ_FIELDS.map((field) => `${field}: ${graphqlReadType(field, entityProperties[field])}`).join('\n    ');

export const typeDefs = /* GraphQL */ `
  scalar JSON

  type EntityType { id: ID! name: String! category: String! }
  type Group { id: ID! name: String! }
  type EntityInterface { thingsboard_uuid: String thingsboard_name: String is_gateway: Boolean! fk_gateway_id: ID }

  type Entity {
    ${entityFields}
    group: Group
    groups: [Group!]!
    entity_type: EntityType!
    interface: EntityInterface!
    children: [Entity!]!
  }

  type EntityTypeGroup { id: ID! name: String! attributes: JSON! }
  type User { id: ID! username: String! email: String! }
  type EntityUpdate { id: ID! diff: JSON! updated_at: String! }

  type Query {
    entity_tree(id: ID, level: Int, depth: Int, type: ID, group: ID): [Entity!]!
    entity_type_group_list: [EntityTypeGroup!]!
    user_list: [User!]!
    share_user_list(kind: String!): [User!]!
  }

  type Subscription {
    entity_updated(entity_ids: [ID!], type: ID, conn_id: String): EntityUpdate!
  }
`;
