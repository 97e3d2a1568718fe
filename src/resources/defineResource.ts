// A refine resource built from a model schema: its routes, menu label, page size, and which door
// (REST path or GraphQL operation) serves each action. The data provider, the access-control
// provider, the routes and the generated pages read only these declarations.
import type { ResourceProps } from '@refinedev/core';
import { accessRule, type ModelSchema } from '../schemas/model.ts';

export interface ModelResource {
  name: string;
  schema: ModelSchema;
  /** The list page's path; create and edit live below it. */
  route: string;
  /** i18n key of the page title. */
  titleKey: string;
  /** Modules the route needs (those of the model's read rule). */
  modules?: readonly string[];
  /** Columns and filters the list shows beside the schema's (e.g. a detail drawer instead of an edit page). */
  detail?: 'drawer' | 'page';
  /** Row actions offered in bulk (status changes). */
  bulkField?: string;
  /** Prefix of the message when the list fails (SPEC §8: 'GetKpiList'). */
  listErrorPrefix?: string;
}

export function defineResource(schema: ModelSchema, options: Omit<ModelResource, 'name' | 'schema' | 'modules'>): ModelResource {
  return { name: schema.$id, schema, modules: accessRule(schema, 'read')?.modules, ...options };
}

/** refine's view of the resource (routes + meta read by the access-control provider). */
export function refineResource(resource: ModelResource): ResourceProps {
  const access = resource.schema['x-access'];
  return {
    name: resource.name,
    list: resource.route,
    ...(access.create ? { create: `${resource.route}/create` } : {}),
    ...(access.update && resource.detail !== 'drawer' ? { edit: `${resource.route}/edit/:id` } : {}),
    meta: { schema: resource.schema, label: resource.titleKey, modules: resource.modules },
  };
}
