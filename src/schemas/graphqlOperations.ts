// GraphQL names and types of a model, derived from its schema: the server builds its schema from
// them (server/graphql/resourceGraphql.ts) and the web app its documents (data provider).
import { INT4_MAX } from './bounds.ts';
import { allowsNull, fieldsWith, writableFields, type FieldSchema, type ModelSchema } from './model.ts';

const pascal = (name: string) => name.replace(/(^|_)(\w)/g, (_m, _s, c: string) => c.toUpperCase());

/** Operation names (SPEC §7 where it names them: kpi_list, create_kpi, log_list, …) and the output type. */
export function operationNames(model: ModelSchema) {
  const name = model.$id;
  const graphql = model['x-api'].graphql ?? {};
  return {
    type: graphql.type ?? pascal(name),
    list: graphql.list ?? `${name}_list`,
    one: graphql.one ?? name,
    create: graphql.create ?? `create_${name}`,
    update: graphql.update ?? `update_${name}`,
    delete: graphql.delete ?? `delete_${name}`,
  };
}

const types = (schema: FieldSchema) => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []).filter((t) => t !== 'null');

/** The GraphQL type of a field: scalars as such, lists of scalars as lists, anything else JSON. */
export function graphqlType(field: string, schema: FieldSchema): string {
  if (field === 'id') return 'ID';
  const [type, ...more] = types(schema);
  if (more.length) return 'JSON';
  if (type === 'integer') return 'Int';
  if (type === 'number') return 'Float';
  if (type === 'string') return 'String';
  if (type === 'boolean') return 'Boolean';
  if (type === 'array' && schema.items && !types(schema.items).includes('object')) {
    const item = graphqlType('', schema.items);
    return item === 'JSON' ? 'JSON' : `[${item}!]`;
  }
  return 'JSON';
}

/** A record id: an integer from 1 to INT4_MAX (src/schemas/bounds.ts idSchema). */
const holdsRecordId = (schema: FieldSchema) => types(schema).includes('integer') && schema.minimum === 1 && schema.maximum === INT4_MAX;

/**
 * The GraphQL type of a field in a read shape of the shell (entity_tree's Entity): ids as ID, and
 * non-null unless the schema lets it be null.
 */
export function graphqlReadType(field: string, schema: FieldSchema): string {
  const type = holdsRecordId(schema) ? 'ID' : graphqlType(field, schema);
  return allowsNull(schema) ? type : `${type}!`;
}

/** Arguments of a list: paging, sorting, search, the declared filters and list arguments. */
export function listArgumentTypes(model: ModelSchema): Record<string, string> {
  const args: Record<string, string> = { page: 'Int', per_page: 'Int', sort: 'String', order: 'String', search: 'String' };
  for (const field of fieldsWith(model, 'x-filter')) {
    if (model.properties[field]['x-filter'] === 'range') Object.assign(args, { [`${field}_from`]: 'String', [`${field}_to`]: 'String' });
    else args[field] = 'ID';
  }
  for (const argument of Object.keys(model['x-api'].listArguments ?? {})) args[argument] = 'ID';
  return args;
}

/** The GraphQL argument that writes `field` (its own name unless the model's x-api names it otherwise). */
export function argumentOf(model: ModelSchema, field: string): string {
  const renamed = Object.entries(model['x-api'].graphql?.arguments ?? {}).find(([, target]) => target === field);
  return renamed?.[0] ?? field;
}

/** Arguments as the fields they write (share_board's scopeName → scope). */
export function fieldsOfArguments(model: ModelSchema, args: Record<string, unknown>): Record<string, unknown> {
  const renames = model['x-api'].graphql?.arguments ?? {};
  return Object.fromEntries(Object.entries(args).map(([name, value]) => [renames[name] ?? name, value]));
}

/** Arguments of create (the writable fields) or update (the id too). */
export function inputArgumentTypes(model: ModelSchema, withId: boolean): Record<string, string> {
  const args: Record<string, string> = withId ? { [argumentOf(model, 'id')]: 'ID!' } : {};
  for (const field of writableFields(model)) args[argumentOf(model, field)] = graphqlType(field, model.properties[field]);
  return args;
}

/** Arguments of delete: the id, and the linked records to leave on a model whose delete names them (delete_component(id, board_ids)). */
export function deleteArgumentTypes(model: ModelSchema): Record<string, string> {
  const links = model['x-api'].deleteLinks;
  return { [argumentOf(model, 'id')]: 'ID!', ...(links ? { [argumentOf(model, links)]: graphqlType(links, model.properties[links]) } : {}) };
}

export const argumentDeclarations = (args: Record<string, string>) => Object.entries(args).map(([name, type]) => `${name}: ${type}`).join(', ');

const selection = (model: ModelSchema) => Object.keys(model.properties).join(' ');

/**
 * An operation with variables for the given arguments (only those with a value are declared). The
 * variables are named by the fields they hold; `argument` names the argument each one is passed as.
 */
function operation(kind: 'query' | 'mutation', field: string, types: Record<string, string>, variables: Record<string, unknown>, body: string,
  argument: (name: string) => string = (name) => name) {
  const byVariable = Object.fromEntries(Object.keys(variables).map((name) => [name, types[argument(name)]]));
  const used = Object.keys(byVariable).filter((name) => byVariable[name] && variables[name] !== undefined);
  const declarations = used.map((name) => `$${name}: ${byVariable[name]}`).join(', ');
  const args = used.map((name) => `${argument(name)}: $${name}`).join(', ');
  return `${kind}${declarations ? `(${declarations})` : ''} { ${field}${args ? `(${args})` : ''} ${body} }`;
}

/** The documents the web app sends for a model. */
export function graphqlDocuments(model: ModelSchema) {
  const ops = operationNames(model);
  const fields = `{ ${selection(model)} }`;
  const argument = (field: string) => argumentOf(model, field);
  return {
    list: (variables: Record<string, unknown>) => operation('query', ops.list, listArgumentTypes(model), variables,
      model['x-api'].pagedList ? `{ meta { pagination { total per_page current_page total_pages } } data ${fields} }` : fields),
    one: (variables: Record<string, unknown>) => operation('query', ops.one, { id: 'ID!' }, variables, fields),
    create: (variables: Record<string, unknown>) => operation('mutation', ops.create, inputArgumentTypes(model, false), variables, fields, argument),
    update: (variables: Record<string, unknown>) => operation('mutation', ops.update, inputArgumentTypes(model, true), variables, fields, argument),
    delete: (variables: Record<string, unknown>) => operation('mutation', ops.delete, deleteArgumentTypes(model), variables,
      '{ id deleted childrenIds watcherNames schedulerNames }', argument),
    names: ops,
  };
}
