// GraphQL doors of API users: `api_user_list` (an addition to SPEC §7, for the API users' page),
// `public_user_update_password(userId, current_password, password)` and `delete_user(userId)`.
// The types and arguments are written from the schemas (src/schemas/apiUser.ts); the password is
// never a field of the answer.
import type { IResolvers } from 'mercurius';
import { apiUserIdArgsSchema, apiUserPasswordArgsSchema, apiUserSchema } from '../../src/schemas/apiUser.ts';
import { argumentDeclarations, graphqlReadType, operationNames } from '../../src/schemas/graphqlOperations.ts';
import { answeredFields, type FieldSchema, type ModelSchema } from '../../src/schemas/model.ts';
import type { ApiUserService } from '../services/apiUserService.ts';
import { callerOf, given, type GraphqlContext } from './graphqlContext.ts';

const model = apiUserSchema as unknown as ModelSchema;
const ops = operationNames(model);
/** The type of an API user's live tokens (the `tokens` field's items). */
const TOKEN_TYPE = `${ops.type}Token`;

const fieldsOf = (properties: Readonly<Record<string, FieldSchema>>, names: string[], listTypes: Record<string, string> = {}) =>
  names.map((field) => `${field}: ${listTypes[field] ? `[${listTypes[field]}!]!` : graphqlReadType(field, properties[field])}`).join('\n    ');

/** Arguments of an operation from its schema: ids (UUIDs) as ID, the required ones non-null. */
function argumentsOf(schema: { properties: Readonly<Record<string, FieldSchema>>; required: readonly string[] }) {
  return argumentDeclarations(Object.fromEntries(Object.entries(schema.properties).map(([name, field]) => {
    const type = field.format === 'uuid' ? 'ID' : graphqlReadType(name, field).replace(/!$/, '');
    return [name, schema.required.includes(name) ? `${type}!` : type];
  })));
}

const tokenProperties = apiUserSchema.properties.tokens.items.properties as Readonly<Record<string, FieldSchema>>;

export const apiUserTypeDefs = /* GraphQL */ `
  type ${TOKEN_TYPE} {
    ${fieldsOf(tokenProperties, Object.keys(tokenProperties))}
  }
  type ${ops.type} {
    ${fieldsOf(model.properties, answeredFields(model), { tokens: TOKEN_TYPE })}
  }
  extend type Query {
    "The tenant's API users with their live tokens (never a token or a hash)."
    ${ops.list}: [${ops.type}!]!
  }
  extend type Mutation {
    "Changes an API user's password (answers 'success'); every token of the API user is revoked."
    ${ops.update}(${argumentsOf(apiUserPasswordArgsSchema)}): String!
    "Deletes an API user; its tokens stop working at once."
    ${ops.delete}(${argumentsOf(apiUserIdArgsSchema)}): DeleteResult!
  }
`;

export function apiUserResolvers(apiUsers: ApiUserService): IResolvers {
  return {
    Query: {
      [ops.list]: (_root: unknown, _args: unknown, context: GraphqlContext) => apiUsers.list(callerOf(context)),
    },
    Mutation: {
      [ops.update]: async (_root: unknown, args: Record<string, unknown>, context: GraphqlContext) => {
        await apiUsers.updatePassword(callerOf(context), given(args));
        return 'success';
      },
      [ops.delete]: async (_root: unknown, args: Record<string, unknown>, context: GraphqlContext) =>
        ({ ...(await apiUsers.remove(callerOf(context), given(args))), deleted: true, childrenIds: [], watcherNames: [], schedulerNames: [] }),
    },
  } as IResolvers;
}
