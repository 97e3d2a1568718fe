// A refine resource built from a model schema: its routes, title and list behaviour. Which door
// (REST path or GraphQL operation) serves each action and who may use it come from the schema's
// x-api and x-access. The data provider, the access-control provider, the routes, the menu and the
// generated pages read only these declarations.
import type { ResourceProps } from '@refinedev/core';
import type { ComponentType } from 'react';
import { accessRule, type Action, type ModelSchema } from '../schemas/model.ts';

export interface ModelResource {
  name: string;
  schema: ModelSchema;
  /** The list page's path; create and edit live below it. */
  route: string;
  /** i18n key of the page title. */
  titleKey: string;
  /** Modules the route needs (those of the model's read rule). */
  modules?: readonly string[];
  /** A user setting: only for users with settings (at least one permission). */
  settings?: boolean;
  /** How a row opens: the edit page (default) or a read-only drawer whose enum fields change in place (logs). */
  detail?: 'drawer' | 'page';
  /** An enum field the list can set on every selected row at once (a log's status). */
  bulkField?: string;
  /** Prefix of the message when the list fails (SPEC §8: 'GetKpiList'). */
  listErrorPrefix?: string;
  /** Where a row of the list leads (its title is a link there), e.g. a board's own page. */
  rowLink?: (id: string | number) => string;
  /** What a row's own answer lets its reader do besides the model's access rules (a board shared to view is neither edited nor deleted). */
  recordAllows?: (record: Record<string, unknown>, action: 'edit' | 'delete') => boolean;
  /** false: no pages of its own (no routes, no menu entry); another page lists and edits it (a board's components). */
  pages?: false;
  /**
   * One page of its own at `route` that lists, creates and edits in dialogs (the page table names
   * it), for a model whose doors do not fit the generated pages (API users: UUID ids, a create that
   * answers a token).
   */
  ownPage?: true;
  /**
   * The action whose access rule opens the list page (default read): maintenance windows are read
   * by everyone (the banner) and listed on a page for those who may start one.
   */
  listPageAction?: Action;
  /** More buttons beside the list's Create (each hides itself from those who may not use it). */
  listActions?: ComponentType;
}

export function defineResource(schema: ModelSchema, options: Omit<ModelResource, 'name' | 'schema' | 'modules'>): ModelResource {
  return { name: schema.$id, schema, modules: accessRule(schema, 'read')?.modules, ...options };
}

/** refine's view of the resource: its routes and labels (access is decided by model name, accessControlProvider.ts). */
export function refineResource(resource: ModelResource): ResourceProps {
  const access = resource.schema['x-access'];
  if (resource.pages === false) return { name: resource.name, meta: { label: resource.titleKey } };
  if (resource.ownPage) return { name: resource.name, list: resource.route, meta: { label: resource.titleKey } };
  return {
    name: resource.name,
    list: resource.route,
    ...(access.create ? { create: `${resource.route}/create` } : {}),
    ...(access.update && resource.detail !== 'drawer' ? { edit: `${resource.route}/edit/:id` } : {}),
    meta: { label: resource.titleKey },
  };
}
