// GraphQL resolvers: thin, they call the same services as the REST routes.
import mercurius, { type IResolvers } from 'mercurius';
import { invalidToken } from '../errors.ts';
import { entityUpdatedTopic, type EntityUpdate } from '../live/entityEvents.ts';
import type { Caller } from '../services/caller.ts';
import type { ReadService } from '../services/readService.ts';
import { JSONScalar } from './jsonScalar.ts';

export interface GraphqlContext { caller?: Caller }

const callerOf = (context: GraphqlContext) => {
  if (!context.caller) throw invalidToken();
  return context.caller;
};
const optionalInt = (value: unknown) => (value === undefined || value === null ? undefined : Number(value));

export function resolvers(reads: ReadService): IResolvers {
  return {
    JSON: JSONScalar,
    Query: {
      entity_tree: (_root, args: Record<string, unknown>, context) => reads.entityTree(callerOf(context as GraphqlContext), {
        id: optionalInt(args.id), level: optionalInt(args.level), depth: optionalInt(args.depth),
        type: optionalInt(args.type), group: optionalInt(args.group),
      }),
      entity_type_group_list: (_root, _args, context) => reads.entityTypeGroups(callerOf(context as GraphqlContext)),
      user_list: (_root, _args, context) => reads.users(callerOf(context as GraphqlContext)),
    },
    Subscription: {
      entity_updated: {
        subscribe: mercurius.withFilter(
          (_root: unknown, _args: unknown, context: any) => context.pubsub.subscribe(entityUpdatedTopic(callerOf(context).tenantId)),
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
