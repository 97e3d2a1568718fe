// entity_tree's Entity type is typed from the entity schema (src/schemas/entityJson.ts
// ENTITY_READ_FIELDS) plus what reads join to it: it must stay the documented one (docs/api.md
// "GraphQL"), ids as ID and null only where the schema allows it, and never carry the device's
// access token.
import { buildSchema, GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../../../server/graphql/schema.ts';

const entityType = () => buildSchema(typeDefs).getType('Entity') as GraphQLObjectType;

describe('GraphQL Entity', () => {
  it('has the documented fields and types', () => {
    const fields = Object.fromEntries(Object.values(entityType().getFields()).map((field) => [field.name, String(field.type)]));
    expect(fields).toEqual({
      id: 'ID!', entity_type_id: 'ID!', parent_id: 'ID', name: 'JSON!', attributes: 'JSON!', geom: 'JSON', level: 'Int!',
      tree_path: 'String!', updated_at: 'String!', group: 'Group', groups: '[Group!]!', entity_type: 'EntityType!',
      interface: 'EntityInterface!', children: '[Entity!]!',
    });
  });
});
