// The API users' page's GraphQL documents, their names, arguments and selections taken from the
// model's schema (src/schemas/apiUser.ts); the create is REST (its x-api).
import { apiUserIdArgsSchema, apiUserPasswordArgsSchema, apiUserSchema } from '../../schemas/apiUser.ts';
import { operationNames } from '../../schemas/graphqlOperations.ts';
import { answeredFields, type FieldSchema, type ModelSchema } from '../../schemas/model.ts';

const model = apiUserSchema as unknown as ModelSchema;
export const API_USER_OPERATIONS = operationNames(model);

/** The answered fields, with those of a list of objects (the tokens) selected inside it. */
const selection = answeredFields(model).map((field) => {
  const items = model.properties[field].items as FieldSchema | undefined;
  return items?.properties ? `${field} { ${Object.keys(items.properties).join(' ')} }` : field;
}).join(' ');

/** `$name: Type!` and `name: $name` for each argument of an operation (ids are UUIDs: ID). */
function argumentsOf(schema: { properties: object }) {
  const properties = schema.properties as Readonly<Record<string, FieldSchema>>;
  const names = Object.keys(properties);
  return {
    declared: names.map((name) => `$${name}: ${properties[name].format === 'uuid' ? 'ID' : 'String'}!`).join(', '),
    passed: names.map((name) => `${name}: $${name}`).join(', '),
  };
}

const passwordArgs = argumentsOf(apiUserPasswordArgsSchema);
const idArgs = argumentsOf(apiUserIdArgsSchema);

export const API_USER_LIST = `query { ${API_USER_OPERATIONS.list} { ${selection} } }`;
export const API_USER_UPDATE_PASSWORD = `mutation (${passwordArgs.declared}) { ${API_USER_OPERATIONS.update}(${passwordArgs.passed}) }`;
export const API_USER_DELETE = `mutation (${idArgs.declared}) { ${API_USER_OPERATIONS.delete}(${idArgs.passed}) { id deleted } }`;
/** POST path of a new API user (its answer carries the token, shown only then). */
export const API_USER_CREATE_PATH = apiUserSchema['x-api'].rest.create;
