// The tenant-scoped reads of the shell: tenant, current user, entity types, entities, groups,
// watchers. Row-level security scopes every query; a missing row is a 404 for the caller.
import type { Database } from '../db/database.ts';
import {
  findTenant, findUser, listEntityTypeGroups, listEntityTypes, listGroups, listUsers, listWatchers,
} from '../db/directoryQueries.ts';
import type { EntityFilters, EntityJson } from '../db/entityQueries.ts';
import { findEntity, listEntities } from '../db/entityQueries.ts';
import { notFound } from '../errors.ts';
import { USER_LIST_PERMISSION } from '../../src/schemas/modules.ts';
import { requirePermission, type Caller } from './caller.ts';

export const ENTITY_NOT_FOUND = 'Entity not found';

interface GroupJson { id: number; tenant_id: string; name: string; tree_path: string; attributes: unknown; parent_id: number | null }
type EntityTreeNode = EntityJson & { children: EntityTreeNode[] };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Nests rows under their parents; rows whose parent is not in the list become roots. */
function nest<T extends { id: number; parent_id: number | null }>(items: T[]): (T & { children: (T & { children: unknown[] })[] })[] {
  const byId = new Map(items.map((item) => [item.id, { ...item, children: [] as unknown[] }]));
  const roots: (T & { children: unknown[] })[] = [];
  for (const node of byId.values()) {
    const parent = node.parent_id === null ? undefined : byId.get(node.parent_id);
    (parent ? parent.children : roots).push(node);
  }
  return roots as (T & { children: (T & { children: unknown[] })[] })[];
}

export function readService(db: Database) {
  const groupList = async (caller: Caller): Promise<GroupJson[]> =>
    (await db.tenantTx(caller.tenantId, listGroups)).map((g) => ({
      id: g.id, tenant_id: g.tenantId, name: g.name, tree_path: g.treePath, attributes: g.attributes, parent_id: g.parentId,
    }));

  return {
    async tenant(caller: Caller) {
      const tenant = await db.tenantTx(caller.tenantId, (tx) => findTenant(tx, caller.tenantId));
      if (!tenant) throw notFound();
      return { id: tenant.id, entity_type_id: tenant.entityTypeId, name: tenant.name, variant: tenant.variant, attributes: tenant.attributes };
    },

    async me(caller: Caller) {
      const user = await db.tenantTx(caller.tenantId, (tx) => findUser(tx, caller.userId));
      if (!user) throw notFound();
      return {
        id: user.id, username: user.username, email: user.email, lang: user.lang ?? 'en', languages: user.languages,
        modules: user.modules, module_permissions: user.modulePermissions, maintenance_modes: user.maintenanceModes,
      };
    },

    users: (caller: Caller) => {
      requirePermission(caller, USER_LIST_PERMISSION);
      return db.tenantTx(caller.tenantId, listUsers);
    },

    async entityTypes(caller: Caller) {
      return (await db.tenantTx(caller.tenantId, listEntityTypes)).map((t) => ({
        id: t.id, tenant_id: t.tenantId, entity_type_group_id: t.entityTypeGroupId, category: t.category, name: t.name,
        definition: t.definition, attributes_order: t.attributesOrder, attributes: t.attributes,
      }));
    },

    async entityTypeGroups(caller: Caller) {
      return (await db.tenantTx(caller.tenantId, listEntityTypeGroups)).map((g) => ({ id: g.id, name: g.name, attributes: g.attributes }));
    },

    entities: (caller: Caller, filters: EntityFilters) => db.tenantTx(caller.tenantId, (tx) => listEntities(tx, filters)),

    async entity(caller: Caller, id: number) {
      const entity = await db.tenantTx(caller.tenantId, (tx) => findEntity(tx, id));
      if (!entity) throw notFound(ENTITY_NOT_FOUND);
      return entity;
    },

    /** The subtree under `id` (or every root) down to `depth` levels, nested through `children`. */
    async entityTree(caller: Caller, args: { id?: number; level?: number; depth?: number; type?: number; group?: number }): Promise<EntityTreeNode[]> {
      const filters: EntityFilters = { level: args.level, type: args.type, group: args.group };
      if (args.id !== undefined) {
        await this.entity(caller, args.id);
        Object.assign(filters, { ids: [args.id], depth: args.depth ?? 100 });
      }
      return nest(await this.entities(caller, filters)) as EntityTreeNode[];
    },

    groupList,

    groupTree: async (caller: Caller) => nest(await groupList(caller)),

    async watchers(caller: Caller) {
      return (await db.tenantTx(caller.tenantId, listWatchers)).map((w) => ({
        id: w.id, name: w.name, query: w.query, condition: w.condition, definition: w.definition,
        last_updated_by: w.lastUpdatedBy, updated_at: iso(w.updatedAt), entity_ids: w.entityIds, entity_type_ids: w.entityTypeIds,
        interval: w.interval, status: w.status, alert: w.alert, triggered_at: iso(w.triggeredAt), result: w.result,
      }));
    },
  };
}
export type ReadService = ReturnType<typeof readService>;
