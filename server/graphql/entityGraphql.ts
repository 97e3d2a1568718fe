// GraphQL doors of entities beyond the engine's own: the dashboard's hand edit (SPEC §7)
// update_entity_attribute(id, vendor, attributes, geom, ts), a device's shared attributes
// update_shared_attributes(id, attributes), and the studio's device import
// import_entities(entities, dry_run): all created in one transaction, or none. Both check the
// caller's permission before their arguments.
import type { IResolvers } from 'mercurius';
import { entityImportArgsSchema, type EntityImportArgs } from '../../src/schemas/entityAttributeUpdate.ts';
import { schemaOf } from '../resources/registry.ts';
import { authorize } from '../resources/resourceAccess.ts';
import type { ResourceService } from '../resources/resourceService.ts';
import { validated } from '../schemaValidator.ts';
import type { EntityAttributeService } from '../services/entityAttributeService.ts';
import { callerOf, given, type GraphqlContext } from './graphqlContext.ts';

export const entityTypeDefs = /* GraphQL */ `
  type EntityAttributeUpdate { id: ID! attributes: JSON! geom: JSON updated_at: String! }
  type EntityImportRefusal { row: Int! field: String! message: String! }
  type EntityImportResult { rows: Int! created: Int! refused: [EntityImportRefusal!]! }
  type SharedAttributeUpdate { id: ID! shared_attributes: JSON! }

  extend type Mutation {
    update_entity_attribute(id: ID!, vendor: String, attributes: JSON, geom: JSON, ts: Float): EntityAttributeUpdate!
    import_entities(entities: [JSON!]!, dry_run: Boolean): EntityImportResult!
    update_shared_attributes(id: ID!, attributes: JSON!): SharedAttributeUpdate!
  }
`;

export function entityResolvers(service: EntityAttributeService, resources: ResourceService): IResolvers {
  return {
    Mutation: {
      import_entities: async (_root, args: Record<string, unknown>, context) => {
        const caller = callerOf(context as GraphqlContext);
        authorize(caller, schemaOf('entity'), 'create'); // createMany's own rule, before the arguments are read
        const { entities, dry_run: dryRun } = validated<EntityImportArgs>(entityImportArgsSchema, given(args), 'args');
        const answer = await resources.createMany(caller, 'entity', entities as Record<string, unknown>[], dryRun ?? false);
        return { rows: entities.length, ...answer };
      },
      update_entity_attribute: (_root, args: Record<string, unknown>, context) => service.update(callerOf(context as GraphqlContext), given(args)),
      update_shared_attributes: (_root, args: Record<string, unknown>, context) => service.updateShared(callerOf(context as GraphqlContext), given(args)),
    },
  };
}
