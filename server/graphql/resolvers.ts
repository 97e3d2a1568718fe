// GraphQL resolvers: thin, they validate their arguments with the shared schemas and call the
// same services as the REST routes.
import mercurius, { type IResolvers } from 'mercurius';
import { entityTreeArgsSchema, entityUpdatedArgsSchema, type EntityTreeArgs } from '../../src/schemas/entityQuery.ts';
import { shareUserArgsSchema, type ShareUserArgs } from '../../src/schemas/shareUsers.ts';
import { validated } from '../schemaValidator.ts';
import { callerOf, given, type GraphqlContext } from './graphqlContext.ts';
import { entityUpdatedTopic, type EntityUpdate } from '../live/liveEvents.ts';
import type { ReadService } from '../services/readService.ts';
import { JSONScalar } from './jsonScalar.ts';

export type { GraphqlContext };

export function resolvers(reads: ReadService): IResolvers {
  return {
    JSON: JSONScalar,
    Query: {
      entity_tree: (_root, args: Record<string, unknown>, context) =>
        reads.entityTree(callerOf(context as GraphqlContext), validated<EntityTreeArgs>(entityTreeArgsSchema, given(args), 'args')),
      entity_type_group_list: (_root, _args, context) => reads.entityTypeGroups(callerOf(context as GraphqlContext)),
      user_list: (_root, _args, context) => reads.users(callerOf(context as GraphqlContext)),
      share_user_list: (_root, args: Record<string, unknown>, context) =>
        reads.shareUsers(callerOf(context as GraphqlContext), validated<ShareUserArgs>(shareUserArgsSchema, given(args), 'args').kind),
    },
    Subscription: {
      entity_updated: {
        subscribe: mercurius.withFilter(
          (_root: unknown, args: unknown, context: any) => {
            validated(entityUpdatedArgsSchema, given(args as Record<string, unknown>), 'args');
            return context.pubsub.subscribe(entityUpdatedTopic(callerOf(context).tenantId));
          },
          // The arguments were validated when the subscription started.
          (payload: { entity_updated: EntityUpdate }, rawArgs: unknown) => {
            const args = rawArgs as { entity_ids?: string[]; type?: string };
            const update = payload.entity_updated;
            if (args.entity_ids?.length && !args.entity_ids.includes(String(update.id))) return false;
            return !args.type || String(update.entity_type_id) === String(args.type);
          },
        ),
      },
    },
  };
}
