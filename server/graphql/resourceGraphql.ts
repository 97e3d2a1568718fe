// GraphQL doors of every model, generated from its schema: an output type, `<model>_list` and
// `<model>(id)` queries, `create_/update_/delete_<model>` mutations with the input fields as
// arguments (SPEC §7: create_kpi(name, attributes, definition, query, group_ids, category)), and
// the `resource_changed(resource)` subscription. Names can be overridden in the model's x-api.
import mercurius, { type IResolvers } from 'mercurius';
import {
  argumentDeclarations, deleteArgumentTypes, fieldsOfArguments, graphqlType, inputArgumentTypes, listArgumentTypes, operationNames,
} from '../../src/schemas/graphqlOperations.ts';
import type { ModelSchema } from '../../src/schemas/model.ts';
import { ApiError } from '../errors.ts';
import { resourceChangedTopic, type ResourceChange } from '../live/resourceEvents.ts';
import { isModel, modelNames, schemaOf } from '../resources/registry.ts';
import { authorize, receivesChange, visibleRecord } from '../resources/resourceAccess.ts';
import type { RecordData, ResourceService } from '../resources/resourceService.ts';
import type { RecordUsage } from '../resources/rules/types.ts';
import type { Caller } from '../auth/caller.ts';
import { callerOf, given, type GraphqlContext } from './graphqlContext.ts';

interface ModelDefs { types: string; queries: string[]; mutations: string[] }

function modelTypeDefs(model: ModelSchema): ModelDefs {
  const ops = operationNames(model);
  const fields = Object.entries(model.properties).map(([field, schema]) => `${field}: ${graphqlType(field, schema)}`).join('\n    ');
  const access = model['x-access'];
  const paged = model['x-api'].pagedList;
  return {
    types: `type ${ops.type} {\n    ${fields}\n  }\n  ${paged ? `type ${ops.type}Page { meta: ListMeta! data: [${ops.type}!]! }` : ''}`,
    queries: access.read ? [
      `${ops.list}(${argumentDeclarations(listArgumentTypes(model))}): ${paged ? `${ops.type}Page!` : `[${ops.type}!]!`}`,
      `${ops.one}(id: ID!): ${ops.type}`,
    ] : [],
    mutations: [
      access.create ? `${ops.create}(${argumentDeclarations(inputArgumentTypes(model, false))}): ${ops.type}!` : '',
      access.update ? `${ops.update}(${argumentDeclarations(inputArgumentTypes(model, true))}): ${ops.type}!` : '',
      access.delete ? `${ops.delete}(${argumentDeclarations(deleteArgumentTypes(model))}): DeleteResult!` : '',
    ].filter(Boolean),
  };
}

/** The GraphQL schema of every registered model. */
export function resourceTypeDefs(): string {
  const defs = modelNames().map((name) => modelTypeDefs(schemaOf(name)));
  return /* GraphQL */ `
  type Pagination { total: Int! per_page: Int! current_page: Int! total_pages: Int! }
  type ListMeta { pagination: Pagination! }
  "A deletion; an entity that is still used is not deleted and the answer names what uses it."
  type DeleteResult { id: ID! deleted: Boolean! childrenIds: [ID!]! watcherNames: [String!]! schedulerNames: [String!]! }
  "notify: the change is an in-app notification for the subscriber (a log its notification rules ask for)."
  type ResourceChange { resource: String! action: String! id: ID! record: JSON notify: Boolean! }
  ${defs.map((def) => def.types).join('\n  ')}
  extend type Query {
    ${defs.flatMap((def) => def.queries).join('\n    ')}
  }
  type Mutation {
    ${defs.flatMap((def) => def.mutations).join('\n    ')}
  }
  extend type Subscription {
    "Records of a model created, changed or deleted in the caller's tenant (each as the caller may see it)."
    resource_changed(resource: String!): ResourceChange!
  }
`;
}

/**
 * A granted record's change as the subscriber's own read answers it now (what they may do with it
 * is theirs): a record they no longer see — deleted, or no longer shared with them — is `deleted`.
 */
async function asReadNow(resources: ResourceService, caller: Caller, change: ResourceChange) {
  const gone = { resource: change.resource, action: 'deleted' as const, id: change.id, record: null };
  if (change.action === 'deleted') return gone;
  try {
    return { resource: change.resource, action: change.action, id: change.id, record: await resources.get(caller, change.resource, change.id) };
  } catch (error) {
    if (error instanceof ApiError && error.statusCode < 500) return gone;
    throw error;
  }
}

export function resourceResolvers(resources: ResourceService): IResolvers {
  const Query: Record<string, unknown> = {};
  const Mutation: Record<string, unknown> = {};
  for (const name of modelNames()) {
    const model = schemaOf(name);
    const ops = operationNames(model);
    const access = model['x-access'];
    if (access.read) {
      Query[ops.list] = async (_root: unknown, args: Record<string, unknown>, context: GraphqlContext) => {
        const result = await resources.list(callerOf(context), name, given(args));
        if (!model['x-api'].pagedList) return result.rows;
        const pagination = { total: result.total, per_page: result.per_page, current_page: result.page, total_pages: Math.ceil(result.total / result.per_page) };
        return { meta: { pagination }, data: result.rows };
      };
      Query[ops.one] = (_root: unknown, args: { id: string }, context: GraphqlContext) => resources.get(callerOf(context), name, Number(args.id));
    }
    // arguments named otherwise than their fields (share_board's scopeName) are passed as the fields
    const input = (args: RecordData) => fieldsOfArguments(model, given(args));
    if (access.create) Mutation[ops.create] = (_root: unknown, args: RecordData, context: GraphqlContext) => resources.create(callerOf(context), name, input(args));
    if (access.update) Mutation[ops.update] = (_root: unknown, args: RecordData, context: GraphqlContext) => resources.update(callerOf(context), name, input(args));
    if (access.delete) {
      const links = model['x-api'].deleteLinks;
      Mutation[ops.delete] = async (_root: unknown, args: RecordData, context: GraphqlContext) => {
        const { id, ...rest } = input(args) as { id: string } & RecordData;
        const none = { childrenIds: [], watcherNames: [], schedulerNames: [] };
        try {
          return { ...(await resources.remove(callerOf(context), name, Number(id), links ? rest[links] : undefined)), deleted: true, ...none };
        } catch (error) {
          const usage = (error as { usage?: RecordUsage }).usage;
          if (error instanceof ApiError && usage) return { id, deleted: false, ...usage };
          throw error;
        }
      };
    }
  }
  return {
    Query,
    Mutation,
    Subscription: {
      resource_changed: {
        subscribe: mercurius.withFilter(
          (_root: unknown, rawArgs: unknown, context: any) => {
            const args = rawArgs as { resource: string };
            const caller = callerOf(context);
            if (!isModel(args.resource)) throw new ApiError(400, 'VALIDATION', 'resource must name a model', 'resource');
            authorize(caller, schemaOf(args.resource), 'read');
            return context.pubsub.subscribe(resourceChangedTopic(caller.tenantId, args.resource));
          },
          (payload: { resource_changed: ResourceChange }, _args: unknown, context: any) => receivesChange(context.caller, payload.resource_changed),
        ),
        resolve: async (payload: { resource_changed: ResourceChange }, _args: unknown, context: GraphqlContext) => {
          const change = payload.resource_changed;
          const model = schemaOf(change.resource);
          const caller = callerOf(context);
          const notify = change.notify?.includes(caller.userId) ?? false;
          if (change.audience) return { ...(await asReadNow(resources, caller, change)), notify };
          return { ...change, removed: undefined, owner: undefined, record: change.record && visibleRecord(caller, model, change.record), notify };
        },
      },
    },
  } as IResolvers;
}
