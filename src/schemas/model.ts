// What a model schema (src/schemas/<model>.ts) declares besides its fields, and the schemas the
// engine derives from it: the input of create and update, the list query, the answer. The
// server (validation, OpenAPI, GraphQL, the generic service) and the web app (pages, forms,
// the data provider) read only these.
//
// Keys on the model (the schema's root):
//   $id                  the model's name (`watcher`)
//   x-access             per action (list/get = `read`, create, update, delete): the modules (any
//                        of) and the permission it needs; an action left out is not offered
//   x-api                the calls serving it: REST paths (SPEC §7) and/or GraphQL operation names
//   x-owner              a field holding the caller's user id: every row is the caller's own
//   x-labels-of          the model whose dictionary labels the fields (a variant of another model)
//   x-title              the field naming a record in messages ('{name} was updated successfully')
//   x-default-sort       { field, order }
//   x-page-size          rows per page of the generated list
//   x-writes-during-read-only  its writes go on during read-only maintenance (the windows themselves)
// Keys on a field:
//   x-widget             how the form edits it (see SchemaForm)
//   x-label              i18n key of its label (default `models.<model>.fields.<field>`)
//   x-column             shown as a list column (true or { width })
//   x-order              position in the form and the list
//   x-group              form section (i18n key `models.<model>.groups.<group>`)
//   x-filter             a list filter (true = equals / any of; 'range' = from/to for times)
//   x-search             matched by the list's search text
//   x-sort               the list can sort by it
//   x-tags               enum value → tag colour in lists
//   x-permission         needed to see or write the field (left out of answers otherwise)
//   x-value-permissions  enum value → permission needed to choose it
//   x-value-claim        the token claim listing the enum values a user may choose (maintenance_modes)
//   x-conditional        shown only while a matching if/then branch of the schema names it
//   x-form               false: left out of the generated form (edited by its page)
//   x-errors             failed keyword → error code (translated by clients)
//   readOnly             set by the server, never by a client
//   writeOnly            written by a client, never answered (a password)
import { MAX_PAGE_SIZE, pageQuery } from './fields.ts';
import { idListSchema, idSchema, NO_NUL } from './bounds.ts';
import { modulesGranted, permissionGranted } from './modules.ts';

export type Action = 'read' | 'create' | 'update' | 'delete';
export interface AccessRule {
  modules?: readonly string[];
  permission?: string;
  /** The token allows at least one maintenance mode (`maintenance_modes`). */
  maintenanceModes?: boolean;
}

export interface ModelApi {
  rest?: { list?: string; create?: string; update?: string; delete?: string };
  /**
   * GraphQL operation names (default `<model>_list`, `<model>`, `create_<model>`, …), the output
   * type's name, and arguments SPEC names otherwise than the field they write (argument → field:
   * share_board(scopeName) writes `scope`, remove_share_board(ticket_id) names the `id`).
   */
  graphql?: { list?: string; one?: string; create?: string; update?: string; delete?: string; type?: string; arguments?: Readonly<Record<string, string>> };
  /** Extra list arguments of the GraphQL list (e.g. kpi_list(group, module)) → the field they filter. */
  listArguments?: Readonly<Record<string, string>>;
  /** The GraphQL list answers `{ meta: { pagination }, data }` instead of an array. */
  pagedList?: boolean;
  /**
   * An id-list field a delete may name (delete_component(id, board_ids)): the record leaves those
   * linked records only, and is deleted once it is linked to none.
   */
  deleteLinks?: string;
}

export interface FieldSchema {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  const?: unknown;
  format?: string;
  readOnly?: boolean;
  /** Written by a client, never answered (a password). */
  writeOnly?: boolean;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  items?: FieldSchema;
  properties?: Readonly<Record<string, FieldSchema>>;
  required?: readonly string[];
  allOf?: readonly ConditionalSchema[];
  'x-widget'?: string;
  /** The dictionary key of its label (texts live only in the dictionaries). */
  'x-label'?: string | Readonly<Record<string, string>>;
  'x-column'?: boolean | { width?: number };
  'x-order'?: number;
  'x-group'?: string;
  'x-filter'?: boolean | 'range';
  'x-search'?: boolean;
  'x-sort'?: boolean;
  'x-tags'?: Readonly<Record<string, string>>;
  'x-permission'?: string;
  'x-value-permissions'?: Readonly<Record<string, string>>;
  /** The token claim listing the values a user may choose (`maintenance_modes`). */
  'x-value-claim'?: 'maintenance_modes';
  'x-conditional'?: boolean;
  /** false: not in the generated form (the page edits it its own way, e.g. a component's place on its board). */
  'x-form'?: boolean;
  'x-errors'?: Readonly<Record<string, string>>;
  [key: string]: unknown;
}

/** An if/then/else rule, or (without `if`) fields always required, with their own error codes. */
export interface ConditionalSchema {
  required?: readonly string[];
  'x-errors'?: Readonly<Record<string, string>>;
  if?: { properties?: Readonly<Record<string, FieldSchema>>; required?: readonly string[] };
  then?: { properties?: Readonly<Record<string, FieldSchema>>; required?: readonly string[] };
  else?: { properties?: Readonly<Record<string, FieldSchema>>; required?: readonly string[] };
}

export interface ModelSchema {
  $id: string;
  type: 'object';
  properties: Readonly<Record<string, FieldSchema>>;
  required?: readonly string[];
  allOf?: readonly ConditionalSchema[];
  'x-access': Readonly<Partial<Record<Action, AccessRule>>>;
  'x-api': ModelApi;
  'x-owner'?: string;
  /** The model whose dictionary entries label this one's fields (`models.<it>.fields.<field>`). */
  'x-labels-of'?: string;
  'x-title'?: string;
  'x-default-sort'?: { field: string; order: 'asc' | 'desc' };
  'x-page-size'?: number;
  'x-writes-during-read-only'?: boolean;
  [key: string]: unknown;
}

/** Every UI key, declared to ajv so that strict mode accepts the schemas. */
export const UI_KEYWORDS = [
  'x-access', 'x-api', 'x-owner', 'x-labels-of', 'x-title', 'x-default-sort', 'x-page-size', 'x-writes-during-read-only',
  'x-widget', 'x-label', 'x-column', 'x-order', 'x-group', 'x-filter', 'x-search', 'x-sort', 'x-tags',
  'x-permission', 'x-value-permissions', 'x-value-claim', 'x-conditional', 'x-options', 'x-form',
] as const;

/** Conditional and composition keywords: they describe a whole record, not one field. */
const CONDITIONAL_KEYS = ['allOf', 'if', 'then', 'else', 'oneOf', 'anyOf'];

const omitKeys = <T extends object>(value: T, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));

/** Whether a field may hold null (a field without a type may hold anything). */
export const allowsNull = (schema: FieldSchema) => schema.type === undefined || [schema.type].flat().includes('null');

/** The fields a client may write. */
export const writableFields = (model: ModelSchema) => Object.keys(model.properties).filter((field) => !model.properties[field].readOnly);

/** The body of create: the writable fields, their requirements and the model's if/then rules. */
export function createInputSchema(model: ModelSchema) {
  const fields = writableFields(model);
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(fields.map((field) => [field, model.properties[field]])),
    required: (model.required ?? []).filter((field) => fields.includes(field)),
    ...(model.allOf ? { allOf: model.allOf } : {}),
  };
}

/**
 * The body of update: the id and any writable fields (a patch). The record the patch makes is
 * checked against the create schema by the service, so if/then rules hold on the whole record.
 */
export function updateInputSchema(model: ModelSchema) {
  const fields = writableFields(model);
  return {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: idSchema, ...Object.fromEntries(fields.map((field) => [field, omitKeys(model.properties[field], ['default'])])) },
  };
}

/** The fields an answer may carry: all but those only ever written (a password). */
export const answeredFields = (model: ModelSchema) => Object.keys(model.properties).filter((field) => !model.properties[field].writeOnly);

/** A record as the API answers it (every field optional: some are left out by permission). */
export function recordSchema(model: ModelSchema) {
  return {
    type: 'object',
    properties: Object.fromEntries(answeredFields(model).map((field) => [field, answerSchema(model.properties[field])])),
  };
}

/** A field's schema for answers: no defaults, no conditions, nested objects open. */
function answerSchema(schema: FieldSchema): object {
  const uiKeys = Object.keys(schema).filter((key) => key.startsWith('x-'));
  const base = omitKeys(schema, ['default', ...CONDITIONAL_KEYS, 'additionalProperties', 'required', 'pattern', 'format', 'minProperties', ...uiKeys]);
  if (schema.properties) {
    return { ...base, additionalProperties: true, properties: Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, answerSchema(v)])) };
  }
  if (schema.items) return { ...base, items: answerSchema(schema.items) };
  return base;
}

export const fieldsWith = (model: ModelSchema, key: keyof FieldSchema) => Object.keys(model.properties).filter((field) => model.properties[field][key]);

/** Query parameters of a list: page, per_page, sort, order, search and the declared filters. */
export function listQuerySchema(model: ModelSchema) {
  const filters: Record<string, object> = {};
  for (const field of fieldsWith(model, 'x-filter')) {
    const schema = model.properties[field];
    if (schema['x-filter'] === 'range') {
      filters[`${field}_from`] = { type: 'string', format: 'date-time', maxLength: 40 };
      filters[`${field}_to`] = { type: 'string', format: 'date-time', maxLength: 40 };
    } else if (schema.type === 'array' || schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'))) {
      filters[field] = idListSchema; // ids, comma-separated
    } else if (schema.enum) {
      // one value or several, comma-separated
      filters[field] = { type: 'string', maxLength: 500, pattern: `^(${schema.enum.join('|')})(,(${schema.enum.join('|')}))*$` };
    } else {
      filters[field] = { type: 'string', maxLength: 200, pattern: NO_NUL };
    }
  }
  for (const argument of Object.keys(model['x-api'].listArguments ?? {})) filters[argument] = idListSchema;
  const sortable = fieldsWith(model, 'x-sort');
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...pageQuery,
      ...(sortable.length ? { sort: { type: 'string', enum: sortable }, order: { type: 'string', enum: ['asc', 'desc'] } } : {}),
      ...(fieldsWith(model, 'x-search').length ? { search: { type: 'string', maxLength: 200, pattern: NO_NUL } } : {}),
      ...filters,
    },
  };
}

export const pageSizeOf = (model: ModelSchema) => model['x-page-size'] ?? 20;
export { MAX_PAGE_SIZE };

/** The i18n key of a field's label. */
export const fieldLabelKey = (model: ModelSchema, field: string, schema: FieldSchema = model.properties[field]) =>
  (typeof schema['x-label'] === 'string' ? schema['x-label'] : `models.${model['x-labels-of'] ?? model.$id}.fields.${field}`);

/**
 * A field's label in `language`: the text its `x-label` gives for the language, or its
 * dictionary key's translation. undefined when neither has one.
 */
export function fieldLabel(translate: (key: string) => string | undefined, language: string, model: ModelSchema, field: string, schema: FieldSchema = model.properties[field]): string | undefined {
  const own = schema['x-label'];
  return typeof own === 'object' ? own[language] : translate(fieldLabelKey(model, field, schema));
}

/** Fields in the declared order (x-order, then declaration order). */
export function orderedFields(properties: Readonly<Record<string, FieldSchema>>): string[] {
  const names = Object.keys(properties);
  return names
    .map((field, index) => ({ field, order: properties[field]['x-order'] ?? 1000 + index }))
    .sort((a, b) => a.order - b.order)
    .map(({ field }) => field);
}

/** The model's rule for an action, if it offers the action. */
export const accessRule = (model: ModelSchema, action: Action): AccessRule | undefined => model['x-access'][action];

/** What a user holds (token claims on the web, the caller on the server). */
export interface Grants { modules: readonly string[]; permissions: readonly string[]; maintenanceModes?: readonly string[] }

/** Whether these grants allow the action on the model (SPEC §6); an action not offered is never allowed. */
export function actionAllowed(grants: Grants, model: ModelSchema, action: Action): boolean {
  const rule = accessRule(model, action);
  if (!rule) return false;
  return modulesGranted(grants.modules, rule.modules) && (!rule.permission || permissionGranted(grants.permissions, rule.permission))
    && (!rule.maintenanceModes || !!grants.maintenanceModes?.length);
}
