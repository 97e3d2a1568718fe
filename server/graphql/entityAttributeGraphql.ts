// GraphQL door of the dashboard's hand edit (SPEC §7): update_entity_attribute(id, vendor, attributes, geom, ts).
import type { IResolvers } from 'mercurius';
import { entityAttributeUpdateSchema, type EntityAttributeUpdate } from '../../src/schemas/entityAttributeUpdate.ts';
import { validated } from '../api/schemaValidator.ts';
import type { EntityAttributeService } from '../services/entityAttributeService.ts';
import { callerOf, given, type GraphqlContext } from './graphqlContext.ts';

export const entityAttributeTypeDefs = /* GraphQL */ `
  type EntityAttributeUpdate { id: ID! attributes: JSON! geom: JSON updated_at: String! }

  extend type Mutation {
    update_entity_attribute(id: ID!, vendor: String, attributes: JSON, geom: JSON, ts: Float): EntityAttributeUpdate!
  }
`;

export function entityAttributeResolvers(service: EntityAttributeService): IResolvers {
  return {
    Mutation: {
      update_entity_attribute: (_root, args: Record<string, unknown>, context) =>
        service.update(callerOf(context as GraphqlContext), validated<EntityAttributeUpdate>(entityAttributeUpdateSchema, given(args), 'args')),
    },
  };
}
