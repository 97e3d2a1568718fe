// The tenant-scoped reads of the shell: tenant, current user, entity types, entities, groups.
// Row-level security scopes every query; a missing row is a 404 for the caller. The hot reads
// come back as the JSON text the database built, kept per tenant until its data changes.
import type { SQL } from 'drizzle-orm';
import { USER_LIST_PERMISSION } from '../../src/schemas/modules.ts';
import type { Database } from '../db/database.ts';
import {
  listEntityTypeGroups, listEntityTypes, listGroups, listUsers, listUsersWithModule, meJsonQuery, tenantJsonQuery,
} from '../db/directoryQueries.ts';
import type { EntityFilters, EntityJson, EntityPage, GroupMemberFilters, MapFeatureFilters } from '../db/entityQueries.ts';
import {
  entityCountJsonQuery, entityListJsonQuery, entityPageJsonQuery, findEntity, groupMembersJsonQuery, indexedSearch, mapFeaturesJsonQuery, MAX_NAMED_CANDIDATES,
  MAX_UNPAGED_ENTITIES, namedIdsQuery, subtreeRangeUsable,
  TOO_MANY_ENTITIES, treePathOf,
} from '../db/entityQueries.ts';
import { telemetryKeys, type TelemetryKeyFilter } from '../db/telemetryKeyQueries.ts';
import { answerTooLarge, notFound } from '../errors.ts';
import { ENTITY_NOT_FOUND } from '../resources/rules/entityRules.ts';
import { requireModule, requirePermission, type Caller } from '../auth/caller.ts';
import { SHARE_USER_KINDS, type ShareUserArgs } from '../../src/schemas/shareUsers.ts';
import { readBudget, type ReadBudget } from './readBudget.ts';
import { filtersKey, tenantReadCache, type TenantReadCache } from '../cache/tenantReadCache.ts';

interface GroupJson { id: number; tenant_id: string; name: string; tree_path: string; attributes: unknown; parent_id: number | null }
type EntityTreeNode = EntityJson & { children: EntityTreeNode[] };

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

function found(json: string | undefined): string {
  if (json === undefined) throw notFound();
  return json;
}

export function readService(db: Database, cache: TenantReadCache = tenantReadCache(), budget: ReadBudget = readBudget()) {
  /**
   * A hot read's JSON text, from the cache or the database (undefined when there is no row); an
   * `expensive` one (it grows with the tenant) reads the database as one of the caller's budgeted reads.
   * A `query` given as a function is made only when the cache does not answer.
   */
  const cachedJson = async (caller: Caller, key: string, query: SQL | (() => Promise<SQL>), expensive = false): Promise<string | undefined> => {
    const cached = cache.get(caller.tenantId, key);
    if (cached !== undefined) return cached;
    const version = cache.version(caller.tenantId);
    const read = async () => db.tenantQuery<{ json: string }>(caller.tenantId, typeof query === 'function' ? await query() : query);
    const [row] = await (expensive ? budget.run(caller, read) : read());
    if (row) cache.set(caller.tenantId, key, row.json, version);
    return row?.json;
  };

  /**
   * The filters with what lets the database read them faster: the region's tree path, where it reads
   * a subtree as a range of paths (EntityFilters.regionPath), and a search's candidates from the
   * names' index when there are few enough (EntityFilters.named).
   */
  const resolvedFilters = async (caller: Caller, filters: EntityFilters): Promise<EntityFilters> => {
    const resolved = { ...filters };
    const { region, search } = filters;
    if (region !== undefined && (await subtreeRangeUsable(db))) {
      resolved.regionPath = await db.tenantTx(caller.tenantId, (tx) => treePathOf(tx, region));
    }
    if (search && indexedSearch(search)) {
      const [{ ids }] = await db.tenantQuery<{ ids: number[] }>(caller.tenantId, namedIdsQuery(search));
      if (ids.length <= MAX_NAMED_CANDIDATES) resolved.named = ids;
    }
    return resolved;
  };

  const groupList = async (caller: Caller): Promise<GroupJson[]> =>
    (await db.tenantTx(caller.tenantId, listGroups)).map((g) => ({
      id: g.id, tenant_id: g.tenantId, name: g.name, tree_path: g.treePath, attributes: g.attributes, parent_id: g.parentId,
    }));

  return {
    tenantJson: async (caller: Caller) => found(await cachedJson(caller, 'tenant', tenantJsonQuery(caller.tenantId))),

    meJson: async (caller: Caller) => found(await cachedJson(caller, `me:${caller.userId}`, meJsonQuery(caller.userId))),

    users: (caller: Caller) => {
      requirePermission(caller, USER_LIST_PERMISSION);
      return db.tenantTx(caller.tenantId, listUsers);
    },

    /** Whom the caller may share a board of a kind with: the tenant's other users with its module. A
     * board's owner needs no `users.list`: the kind's module and its share permission suffice. */
    async shareUsers(caller: Caller, kind: ShareUserArgs['kind']) {
      const { module, permission } = SHARE_USER_KINDS[kind];
      requireModule(caller, module);
      requirePermission(caller, permission);
      const found = await db.tenantTx(caller.tenantId, (tx) => listUsersWithModule(tx, module));
      return found.filter((user) => user.id !== caller.userId);
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

    /** The matching entities, all of them: 400 ANSWER_TOO_LARGE when more than MAX_UNPAGED_ENTITIES match. */
    async entitiesJson(caller: Caller, filters: EntityFilters) {
      const json = await cachedJson(caller, `entities:${filtersKey(filters)}`, async () => entityListJsonQuery(await resolvedFilters(caller, filters)), true);
      if (json === TOO_MANY_ENTITIES) throw answerTooLarge(MAX_UNPAGED_ENTITIES);
      return json ?? '[]';
    },

    /**
     * One page of the matching entities, and how many match in all: a search counts its matches as
     * it reads them; a list is counted once for all its pages of the same filters. The filters are
     * resolved (resolvedFilters) only when the cache does not answer.
     */
    entityPage: async (caller: Caller, given: EntityFilters, page: EntityPage): Promise<{ total: number; rows: EntityJson[] }> => {
      let resolved: Promise<EntityFilters> | undefined;
      const filters = () => (resolved ??= resolvedFilters(caller, given));
      const searched = Boolean(given.search);
      const [answer, counted] = await Promise.all([
        cachedJson(caller, `entity-page:${filtersKey({ ...given, ...page })}`, async () => entityPageJsonQuery(await filters(), page, searched), true),
        searched ? undefined : cachedJson(caller, `entity-count:${filtersKey(given)}`, async () => entityCountJsonQuery(await filters()), true),
      ]);
      const { total, rows } = JSON.parse(answer!) as { total: number | null; rows: EntityJson[] };
      return { total: total ?? Number(counted), rows };
    },

    /** A page of what the map draws (src/schemas/mapFeatures.ts). */
    mapFeaturesJson: async (caller: Caller, filters: MapFeatureFilters) =>
      (await cachedJson(caller, `map:${JSON.stringify(filters)}`, mapFeaturesJsonQuery(filters), true))!,

    /** A page of the ids of a group's entities (src/schemas/groupMembers.ts). */
    groupMembersJson: async (caller: Caller, filters: GroupMemberFilters) =>
      (await cachedJson(caller, `members:${JSON.stringify(filters)}`, groupMembersJsonQuery(filters), true))!,

    /** The keys some entities report (a budgeted read: it grows with the tenant's telemetry). */
    telemetryKeys: (caller: Caller, filter: TelemetryKeyFilter) =>
      budget.run(caller, () => db.tenantTx(caller.tenantId, (tx) => telemetryKeys(tx, filter))),

    async entities(caller: Caller, filters: EntityFilters): Promise<EntityJson[]> {
      return JSON.parse(await this.entitiesJson(caller, filters));
    },

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

  };
}
export type ReadService = ReturnType<typeof readService>;
