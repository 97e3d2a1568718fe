// Entity reads, shaped as the API returns them (docs/api.md "Entity"), and the statements of the
// entity's rules: its place in the tree and what uses it.
import type { SQL } from 'drizzle-orm';
import { eq, sql } from 'drizzle-orm';
import { columnsByName } from './columnKeys.ts';
import { isArea, isPoint } from './geometry.ts';
import type { Database, Tx } from './database.ts';
import { entities } from './schema.ts';
import { ENTITY_READ_FIELDS, MAX_LISTED_CHILDREN, type EntityDetailJson } from '../../src/schemas/entityJson.ts';
import { colour as colourSchema } from '../../src/schemas/fields.ts';
import { asJsonArray, containing, intArrayParam, intList, isoTime, rows } from './rows.ts';

export interface EntityFilters {
  ids?: number[];
  level?: number;
  depth?: number;
  type?: number;
  group?: number;
  search?: string;
  /** true = gateways only; a number = the devices behind that gateway */
  gateway?: boolean | number;
  parentIsNull?: boolean;
  /** That entity and everything under it. */
  region?: number;
  /**
   * The region's tree path, on a database that sorts text byte by byte (subtreeRangeUsable): its
   * subtree is then read as a range of the tree-path index, so a page of a million devices walks
   * the index to the page instead of sorting them all.
   */
  regionPath?: string;
  /** Any of these entity types. */
  types?: number[];
  /**
   * With `search`: the ids of the entities whose names may contain it, found through the names'
   * index (namedIdsQuery) when there are few enough; without, every name is read.
   */
  named?: number[];
}

/** A page of the list, in tree order. */
export interface EntityPage { page: number; perPage: number }

export type { EntityDetailJson, EntityJson, LatestTelemetry } from '../../src/schemas/entityJson.ts';

const entityColumns = columnsByName(entities);

/**
 * The entity's own fields (src/schemas/entityJson.ts), from the columns of their names; times as
 * the API writes them. A field without a column is left to the start-up check to name.
 */
const OWN_FIELDS = sql.join(ENTITY_READ_FIELDS.filter((field) => entityColumns.has(field)).map((field) => {
  const column = sql.raw(`e."${field}"`);
  return entityColumns.get(field)!.columnType === 'PgTimestamp' ? sql`${isoTime(column)} AS ${sql.raw(`"${field}"`)}` : column;
}), sql`, `);

// Shaped entirely by PostgreSQL (docs/api.md "Entity"); the groups of all entities are gathered
// in one pass instead of one subquery per entity (`groupsOf` narrows that pass to a page's ids).
const selectEntity = (groupsOf: SQL = sql`TRUE`) => sql`
  SELECT ${OWN_FIELDS},
    json_build_object('id', et.id, 'name', et.name, 'category', et.category) AS entity_type,
    json_build_object('thingsboard_uuid', e.thingsboard_uuid, 'thingsboard_name', e.thingsboard_name,
                      'is_gateway', e.is_gateway, 'fk_gateway_id', e.fk_gateway_id) AS interface,
    COALESCE(gs.groups, '[]'::json) AS groups,
    gs.groups -> 0 AS "group"
  FROM entities e JOIN entity_types et ON et.id = e.entity_type_id
  LEFT JOIN (SELECT eg.entity_id, json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY g.id) AS groups
             FROM entity_groups eg JOIN groups g ON g.id = eg.group_id WHERE ${groupsOf} GROUP BY eg.entity_id) gs ON gs.entity_id = e.id`;
const SELECT_ENTITY = selectEntity();

/** The entities whose ids are in the relation named `ids` (a CTE of column `id`) as one JSON array text, in tree order. */
const entitiesInJson = (ids: 'matched' | 'page') => {
  const idIn = (column: SQL) => sql`${column} IN (SELECT id FROM ${sql.raw(ids)})`;
  return asJsonArray(sql`${selectEntity(idIn(sql`eg.entity_id`))} WHERE ${idIn(sql`e.id`)}`, sql`x.tree_path, x.id`);
};

/** `e` is the region (any entity) or lies under it. */
export const inSubtreeOf = (region: number) =>
  sql`EXISTS (SELECT 1 FROM entities r WHERE r.id = ${region} AND (e.id = r.id OR e.tree_path LIKE r.tree_path || '.%'))`;

/**
 * The entity is the one at the tree path `path` (read beforehand) or lies under it: a constant
 * pattern, where inSubtreeOf looks the region up for every row (1.2 s over a million). Paths are
 * ids joined by dots, so the pattern holds no wildcard of its own.
 */
export const atOrUnderPath = (path: string) => sql`(e.tree_path = ${path} OR e.tree_path LIKE ${`${path}.%`})`;

/** `WHERE` with every condition, or nothing without one. */
export const whereAll = (conditions: SQL[]) => (conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``);

/**
 * A keyset page as JSON text: `{ <field>: [the item of each row of `page` (alias p), in id order],
 * "next": the last id when the page is full, else null }` (GET /map-features, /group-members).
 */
const idPageJson = (field: 'rows' | 'ids', item: SQL, page: SQL, limit: number) => sql`
  SELECT json_build_object(${sql.raw(`'${field}'`)}, COALESCE(json_agg(${item} ORDER BY p.id), '[]'::json),
    'next', CASE WHEN count(*) = ${limit} THEN max(p.id) END)::text AS json
  FROM (${page}) p`;

const pathDepth = (alias: string) => sql.raw(`cardinality(string_to_array(${alias}.tree_path, '.'))`);

function matchConditions(f: EntityFilters, alias: string): SQL[] {
  const a = sql.raw(alias);
  const where: SQL[] = [];
  if (f.ids?.length) where.push(sql`${a}.id IN (${intList(f.ids)})`);
  if (f.type !== undefined) where.push(sql`${a}.entity_type_id = ${f.type}`);
  return where;
}

function conditions(f: EntityFilters): SQL[] {
  const where: SQL[] = [];
  const match = matchConditions(f, 'm');
  if (f.depth !== undefined && match.length) {
    // The matches plus their descendants up to `depth` levels below them.
    where.push(sql`EXISTS (SELECT 1 FROM entities m WHERE ${sql.join(match, sql` AND `)}
      AND (e.id = m.id OR (e.tree_path LIKE m.tree_path || '.%' AND ${pathDepth('e')} <= ${pathDepth('m')} + ${f.depth})))`);
  } else {
    where.push(...matchConditions(f, 'e'));
  }
  if (f.level !== undefined) where.push(sql`e.level = ${f.level}`);
  if (f.group !== undefined) where.push(sql`EXISTS (SELECT 1 FROM entity_groups eg WHERE eg.entity_id = e.id AND eg.group_id = ${f.group})`);
  if (f.named) where.push(sql`e.id = ANY(${intArrayParam(f.named)})`);
  if (f.search) where.push(sql`EXISTS (SELECT 1 FROM jsonb_each_text(e.name) n WHERE n.value ILIKE ${containing(f.search)})`);
  if (f.gateway === true) where.push(sql`e.is_gateway`);
  else if (f.gateway === false) where.push(sql`NOT e.is_gateway`);
  else if (typeof f.gateway === 'number') where.push(sql`e.fk_gateway_id = ${f.gateway}`);
  if (f.parentIsNull) where.push(sql`e.parent_id IS NULL`);
  if (f.regionPath !== undefined && /^\d+(\.\d+)*$/.test(f.regionPath)) {
    // in byte order the path and every path under it ('p.…') lie in [p, 'p/'): '/' follows '.' and precedes the digits
    where.push(sql`e.tree_path >= ${f.regionPath} AND e.tree_path < ${`${f.regionPath}/`}`);
  } else if (f.region !== undefined) where.push(inSubtreeOf(f.region));
  if (f.types?.length) where.push(sql`e.entity_type_id IN (${intList(f.types)})`);
  return where;
}

/** Candidates a search takes from the names' index at most (EntityFilters.named); a text more names contain is searched by reading them all. */
export const MAX_NAMED_CANDIDATES = 20_000;

/**
 * Whether the names' trigram index can find a text: only a run of three letters or digits gives it
 * a trigram to look up (for less it would read the whole index, slower than the names).
 */
export const indexedSearch = (text: string) => /[\p{L}\p{N}]{3}/u.test(text);

/**
 * The ids of the caller's entities whose names (all languages together) may contain `text`, from
 * the names' index (migration 0021), MAX_NAMED_CANDIDATES + 1 at most (column `ids`).
 */
export const namedIdsQuery = (text: string): SQL =>
  sql`SELECT COALESCE(array_agg(id), '{}') AS ids FROM entity_ids_named(${containing(text)}, ${MAX_NAMED_CANDIDATES + 1}) AS id`;

/** What an entity list without pages may hold: more matches are asked for a page at a time. */
export const MAX_UNPAGED_ENTITIES = 10_000;
/** entityListJsonQuery's answer when more than MAX_UNPAGED_ENTITIES match (never a list's JSON). */
export const TOO_MANY_ENTITIES = 'null';

/**
 * The entities matching `filters` as one JSON array text, in tree order; TOO_MANY_ENTITIES when
 * more than MAX_UNPAGED_ENTITIES match (found by reading one more id, not by shaping them all).
 */
export function entityListJsonQuery(filters: EntityFilters): SQL {
  const where = conditions(filters);
  return sql`WITH matched AS (SELECT e.id FROM entities e ${whereAll(where)} LIMIT ${MAX_UNPAGED_ENTITIES + 1})
    SELECT CASE WHEN (SELECT count(*) FROM matched) > ${MAX_UNPAGED_ENTITIES} THEN ${TOO_MANY_ENTITIES}
      ELSE (${entitiesInJson('matched')}) END AS json`;
}

/**
 * One page of the matching entities in tree order as JSON text `{ "total": n | null, "rows": [...] }`:
 * the page's ids are chosen first, then only they are shaped. With `total`, the matches are read
 * once and both counted and sorted (a search: few match, the scan is the cost); without, the page is
 * reached by walking the tree-path index (a big list: counting is left to entityCountJsonQuery,
 * once for all its pages).
 */
export function entityPageJsonQuery(filters: EntityFilters, { page, perPage }: EntityPage, total: boolean): SQL {
  const matched = sql`SELECT e.id, e.tree_path FROM entities e ${whereAll(conditions(filters))}`;
  const ordered = sql`ORDER BY tree_path, id LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`;
  const rows = entitiesInJson('page');
  return total
    ? sql`WITH matched AS MATERIALIZED (${matched}), page AS (SELECT id FROM matched ${ordered})
      SELECT json_build_object('total', (SELECT count(*) FROM matched), 'rows', (SELECT json::json FROM (${rows}) r))::text AS json`
    : sql`WITH page AS MATERIALIZED (SELECT id FROM (${matched}) m ${ordered})
      SELECT json_build_object('total', NULL, 'rows', (SELECT json::json FROM (${rows}) r))::text AS json`;
}

const bytewise = new WeakMap<Database, Promise<boolean>>();

/**
 * Whether the database compares text byte by byte (collation C or POSIX: the embedded database,
 * and PostgreSQL as scripts/postgres.ts creates it): only then is a subtree a range of tree paths
 * (EntityFilters.regionPath). Asked once per database.
 */
export function subtreeRangeUsable(db: Database): Promise<boolean> {
  let known = bytewise.get(db);
  if (!known) {
    known = db.systemQuery<{ bytewise: boolean }>(sql`SELECT datcollate IN ('C', 'POSIX') AS bytewise FROM pg_database WHERE datname = current_database()`)
      .then(([row]) => row?.bytewise === true);
    bytewise.set(db, known);
  }
  return known;
}

/** How many entities match `filters` (as JSON text: a number). */
export function entityCountJsonQuery(filters: EntityFilters): SQL {
  return sql`SELECT count(*)::text AS json FROM entities e ${whereAll(conditions(filters))}`;
}

/** The first MAX_LISTED_CHILDREN children's ids of the entity `parent` (an SQL expression), in order. */
const firstChildIds = (parent: SQL) => sql`ARRAY(SELECT c.id FROM entities c WHERE c.parent_id = ${parent} ORDER BY c.id LIMIT ${MAX_LISTED_CHILDREN})`;

/** One entity with its first children's ids, how many children it has, and its latest telemetry (storedValue's order of the typed columns). */
export async function findEntity(tx: Tx, id: number): Promise<EntityDetailJson | undefined> {
  const [row] = await rows<EntityDetailJson>(tx, sql`
    SELECT x.*, ${firstChildIds(sql`x.id`)} AS children, (SELECT count(*)::int FROM entities c WHERE c.parent_id = x.id) AS children_count,
      COALESCE((SELECT json_object_agg(l.key, json_build_object('ts', (extract(epoch FROM l.ts) * 1000)::bigint,
        'value', COALESCE(to_jsonb(l.value_bool), l.value_json, to_jsonb(l.value_num), to_jsonb(l.value_text))) ORDER BY l.key)
        FROM telemetry_latest l WHERE l.entity_id = x.id), '{}'::json) AS telemetry
    FROM (${SELECT_ENTITY} WHERE e.id = ${id}) x`);
  return row;
}

export interface MapFeatureFilters { region?: number; level?: number; attribute?: string; shape?: 'areas'; after: number; limit: number }

/** A point of the map (geometry.ts). */
export const IS_POINT = isPoint(sql`e.geom`);

/**
 * One page of GET /map-features (src/schemas/mapFeatures.ts) as JSON text, built by the database:
 * rows in id order after `after`, and `next` when a page was full.
 */
export function mapFeaturesJsonQuery(f: MapFeatureFilters): SQL {
  const where: SQL[] = [sql`e.id > ${f.after}`];
  if (f.region !== undefined) where.push(inSubtreeOf(f.region));
  if (f.level !== undefined) where.push(sql`e.level = ${f.level}`);
  // the few that are not points, found through their own index (entities_areas_idx), not among a million devices
  if (f.shape === 'areas') where.push(isArea(sql`e.geom`));
  const position = sql`CASE
    WHEN e.geom IS NULL OR jsonb_typeof(e.geom) <> 'object' THEN NULL
    WHEN e.geom->>'type' = 'Point' AND e.geom ? 'radius' THEN (e.geom->'coordinates') || jsonb_build_array(e.geom->'radius')
    WHEN e.geom->>'type' = 'Point' THEN e.geom->'coordinates'
    ELSE e.geom END`;
  const value = f.attribute === undefined ? sql`NULL::jsonb` : sql`e.attributes -> ${f.attribute}`;
  // the entity's own colour (a region's or zone's), only when it is a colour as the schema has it
  const colour = sql`CASE WHEN e.attributes->>'color' ~ ${colourSchema.pattern} THEN e.attributes->>'color' END`;
  return idPageJson('rows', sql`json_build_array(p.id, p.entity_type_id, p.level, p.parent_id, p.position, p.value, p.colour)`,
    sql`SELECT e.id, e.entity_type_id, e.level, e.parent_id, ${position} AS position, ${value} AS value, ${colour} AS colour
        FROM entities e ${whereAll(where)} ORDER BY e.id LIMIT ${f.limit}`, f.limit);
}

export interface GroupMemberFilters { group: number; region?: number; shape?: 'areas'; after: number; limit: number }

/** One page of GET /group-members (src/schemas/groupMembers.ts) as JSON text: ids in order after `after`. */
export function groupMembersJsonQuery(f: GroupMemberFilters): SQL {
  const where: SQL[] = [sql`eg.group_id = ${f.group}`, sql`e.id > ${f.after}`];
  if (f.region !== undefined) where.push(inSubtreeOf(f.region));
  if (f.shape === 'areas') where.push(isArea(sql`e.geom`));
  return idPageJson('ids', sql`p.id`,
    sql`SELECT e.id FROM entity_groups eg JOIN entities e ON e.id = eg.entity_id ${whereAll(where)} ORDER BY e.id LIMIT ${f.limit}`, f.limit);
}

/** An entity's tree path (`1.4.9`: its ancestors' ids and its own), or undefined when it is not the tenant's. */
/** An entity's name as stored (multilingual JSON), or null. */
export async function entityName(tx: Tx, id: number): Promise<unknown> {
  const [row] = await rows<{ name: unknown }>(tx, sql`SELECT name FROM entities WHERE id = ${id}`);
  return row?.name ?? null;
}

export async function treePathOf(tx: Tx, id: number): Promise<string | undefined> {
  const [entity] = await tx.select({ treePath: entities.treePath }).from(entities).where(eq(entities.id, id));
  return entity?.treePath;
}

/** Gives the entity its tree path; its descendants (under `oldPath`) keep their place under it. */
export async function moveInTree(tx: Tx, id: number, treePath: string, oldPath?: string): Promise<void> {
  await tx.update(entities).set({ treePath }).where(eq(entities.id, id));
  if (oldPath) {
    await tx.execute(sql`UPDATE entities SET tree_path = ${treePath} || substr(tree_path, ${oldPath.length + 1})
      WHERE tree_path LIKE ${`${oldPath}.%`}`);
  }
}

/** What uses an entity: its first children, and the watchers and schedulers naming it. */
export interface EntityUsage { childrenIds: number[]; watcherNames: string[]; schedulerNames: string[] }

export async function entityUsage(tx: Tx, id: number): Promise<EntityUsage> {
  const [usage] = await rows<EntityUsage>(tx, sql`SELECT
    ${firstChildIds(sql`${id}`)} AS "childrenIds",
    ARRAY(SELECT name FROM watchers WHERE ${id} = ANY(entity_ids) ORDER BY name) AS "watcherNames",
    ARRAY(SELECT name FROM schedulers WHERE ${id} = ANY(entity_ids) ORDER BY name) AS "schedulerNames"`);
  return usage;
}
