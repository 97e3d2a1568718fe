// GET /map-clusters: per tenant and scope (region, level) a grid of the point devices
// (server/cache/mapGrid.ts), built once from the database (server/cache/builtOnUse.ts) — by the
// first caller, as one of their budgeted reads; everyone else waits for that build at no cost —
// and then kept current by the commits (server/live/mapIndexWiring.ts) instead of built again: an
// entity's move, creation or deletion is read for that entity alone, its `active` flag taken from
// the change itself, and the ids in alarm read again when a watcher or a log changes, those under
// maintenance when a maintenance window or a group does. An index older than MAX_AGE_MS is built again in the background
// while the old one answers (the safety net for a change this instance was never told of). The
// indexes together hold at most `maxPoints` devices; the least recently used go first. With colour
// rules the clusters count their devices by the first rule met, with groups by the first chosen
// group they are in (mapEntityColumns.ts holds the values and members, each grid a classing of its
// devices per set in use).
import { ruleMet, type RuleCondition } from '../../src/shared/map/ruleConditions.ts';
import { MAX_VIEWPORT_CELLS, DEVICE_FLAGS, type MapClusters, type MapClustersQuery } from '../../src/schemas/mapClusters.ts';
import type { Caller } from '../auth/caller.ts';
import { builtOnUse, type BuiltEntry } from '../cache/builtOnUse.ts';
import { mapGrid, type GridPoint, type MapGrid } from '../cache/mapGrid.ts';
import type { Database } from '../db/database.ts';
import { treePathOf } from '../db/entityQueries.ts';
import { inIdWindows } from '../db/idWindows.ts';
import { alarmIdsQuery, attributeValuesQuery, maintenanceIdsQuery, mapIndexRowsQuery, type MapIndexScope } from '../db/mapIndexQueries.ts';
import { answerTooLarge } from '../errors.ts';
import { attributeSource, groupSource, mapEntityColumns, type EntityChange } from './mapEntityColumns.ts';
import { readBudget, type ReadBudget } from './readBudget.ts';

const MAX_AGE_MS = 10 * 60_000;
/** Flags are read again this long after the first change that asks for it (changes come in bursts)… */
const FLAGS_AFTER_MS = 200;
/** …and no sooner after the last read than this many times its length (so the database spends at most a fifth of its time on them however long they take). */
const FLAGS_SPACING = 4;
/** A viewport asked for while the tenant's flags are about to be read waits for them so long at most (an alarm just told is counted). */
const FLAGS_WAIT_MS = 1_500;
/** Classings (an attribute's colour rules, chosen groups) a grid keeps at most: ~1 byte a device each. */
const MAX_CLASSINGS = 4;
/** Devices the indexes of all tenants hold at most (~90 bytes each: bench/README "The map's server-side grid"). */
const MAX_POINTS = 3_000_000;
/**
 * The flags engines change without touching the entity: the models whose changes may put a device
 * in or out of one, and how its ids are read (each ~15–20 ms at a million: bench/README "The map's
 * server-side grid"). Read apart, so that a watcher's change reads the alarms alone.
 */
const FLAG_KINDS = {
  alarm: { bit: DEVICE_FLAGS.alarm, models: ['watcher', 'log'], query: alarmIdsQuery },
  maintenance: { bit: DEVICE_FLAGS.maintenance, models: ['maintenance_window', 'group'], query: maintenanceIdsQuery },
} as const;
type FlagKind = keyof typeof FLAG_KINDS;
const KINDS = Object.keys(FLAG_KINDS) as FlagKind[];
/** The models whose changes may put a device in or out of alarm or maintenance. */
export const FLAG_MODELS: ReadonlySet<string> = new Set(KINDS.flatMap((kind) => FLAG_KINDS[kind].models));
/** What of an entity decides whether, where and as what it is in a grid. */
const PLACE_FIELDS = ['geom', 'level', 'parent_id', 'entity_type_id'];

interface Index extends BuiltEntry {
  tenantId: string;
  scope: MapIndexScope;
  grid: MapGrid;
  /** Changes heard while the grid was being built, applied once it is. */
  heard?: (() => Promise<void>)[];
  /** The classings its grid keeps (colour rules, chosen groups), the latest used last. */
  classings: string[];
}

export type MapEntityChange = EntityChange;

/** What clusters count their devices by: the first colour rule the attribute's value meets, or the first chosen group a device is in. */
export type ClusterClasses = { rules: readonly RuleCondition[] } | { groups: readonly number[] };

export interface MapIndexOptions { maxPoints?: number; now?: () => number }

export function mapIndexService(db: Database, budget: ReadBudget = readBudget(), options: MapIndexOptions = {}) {
  const { maxPoints = MAX_POINTS, now = Date.now } = options;
  const kept = builtOnUse<Index>({ maxAgeMs: MAX_AGE_MS, maxSize: maxPoints, sizeOf: (index) => index.grid.size, now });
  const indexes = kept.entries;
  // the flags' state per tenant and kind (flagKey)
  const flagKey = (tenantId: string, kind: FlagKind) => `${tenantId}:${kind}`;
  const flagTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** When the last read of a tenant's flag ended and how long it took. */
  const flagReads = new Map<string, { endedAt: number; tookMs: number }>();
  /** Tenants' flags being read, and those of them told of a change meanwhile (read again after). */
  const reading = new Set<string>();
  const changedWhileReading = new Set<string>();
  /** Per tenant's flag with a read to come or under way: settles when it is current. */
  const flagsCurrent = new Map<string, { settled: Promise<void>; settle(): void }>();
  const awaitFlags = (key: string) => {
    if (!flagsCurrent.has(key)) {
      let settle = () => {};
      const settled = new Promise<void>((resolve) => { settle = resolve; });
      flagsCurrent.set(key, { settled, settle });
    }
  };
  const flagsSettled = (key: string) => {
    flagsCurrent.get(key)?.settle();
    flagsCurrent.delete(key);
  };
  const columns = mapEntityColumns(db, budget, { now });
  const keyOf = (tenantId: string, scope: MapIndexScope) => `${tenantId}:${scope.region ?? ''}:${scope.level ?? ''}`;
  const ofTenant = (tenantId: string) => [...indexes.values()].filter((index) => index.tenantId === tenantId);

  /** Files `id,type,level,lng,lat,flags` rows (mapIndexRowsQuery) into the grid: split once, one point object reused (half the time of a split per row). */
  const fileRows = (grid: MapGrid, rows: string | null) => {
    if (!rows) return;
    const values = rows.split(/[;,]/);
    const point: GridPoint = { id: 0, type: 0, level: 0, lng: 0, lat: 0, flags: 0 };
    for (let at = 0; at + 5 < values.length; at += 6) {
      point.id = Number(values[at]); point.type = Number(values[at + 1]); point.level = Number(values[at + 2]);
      point.lng = Number(values[at + 3]); point.lat = Number(values[at + 4]); point.flags = Number(values[at + 5]);
      grid.put(point);
    }
  };

  /** Files the scope's points into an empty grid, a window of ids at a time, then who is in alarm or under maintenance. */
  const load = async (grid: MapGrid, tenantId: string, scope: MapIndexScope) => {
    grid.beginLoad();
    const { region } = scope;
    const regionPath = region === undefined ? undefined : await db.tenantTx(tenantId, (tx) => treePathOf(tx, region));
    await inIdWindows<{ rows: string | null }>(db, tenantId, (window) => mapIndexRowsQuery(scope, window, regionPath), ({ rows }) => fileRows(grid, rows));
    await applyFlags(grid, tenantId);
    grid.endLoad();
  };

  /** Sets each device's flags of these kinds as the database has them now (its connection stays). */
  const applyFlags = async (grid: MapGrid, tenantId: string, kinds: readonly FlagKind[] = KINDS) => {
    for (const kind of kinds) {
      const { bit, query } = FLAG_KINDS[kind];
      const [{ ids }] = await db.tenantQuery<{ ids: number[] }>(tenantId, query());
      const flagged = new Set(ids);
      for (const [id, flags] of grid.entries()) {
        const next = (flags & ~bit) | (flagged.has(id) ? bit : 0);
        if (next !== flags) grid.setFlags(id, next);
      }
    }
  };

  /** Builds the index's grid afresh, then applies what was heard meanwhile (to the old grid if the build failed). */
  const build = async (index: Index, caller?: Caller) => {
    const grid = mapGrid();
    index.heard = [];
    const builtAt = now();
    const read = () => load(grid, index.tenantId, index.scope);
    try {
      await (caller ? budget.run(caller, read) : read());
      index.grid = grid;
      index.builtAt = builtAt;
      index.classings = [];
    } finally {
      for (const change of index.heard.splice(0)) await change();
      index.heard = undefined;
    }
    kept.evict();
  };

  const indexFor = (caller: Caller, scope: MapIndexScope): Promise<Index> => kept.take(keyOf(caller.tenantId, scope),
    () => ({ tenantId: caller.tenantId, scope, grid: mapGrid(), ready: Promise.resolve(), builtAt: 0, classings: [] }),
    (index, first) => build(index, first ? caller : undefined));

  /** Has the index's grid keep the classing `name` (kept from now on; built with classOf the first time) and answers its name. */
  const classesFor = (index: Index, name: string, classes: number, classOf: (id: number) => number) => {
    const at = index.classings.indexOf(name);
    if (at >= 0) index.classings.splice(at, 1);
    else index.grid.keepClasses(name, { classes, classOf });
    index.classings.push(name);
    if (index.classings.length > MAX_CLASSINGS) index.grid.dropClasses(index.classings.shift()!);
    return name;
  };

  /** The classing a view counts by, and what its lone devices carry: their colour value or the chosen group they are drawn for. */
  const countedBy = async (caller: Caller, index: Index, attribute: string | undefined, counted: ClusterClasses) => {
    if ('rules' in counted) {
      const { rules } = counted;
      const values = await columns.valuesOf(caller, attributeSource(attribute!));
      const name = classesFor(index, JSON.stringify(['rules', attribute, values.generation, rules]), rules.length + 1, (id) => ruleMet(rules, values.valueOf(id)));
      return { name, valueOf: values.valueOf };
    }
    const { groups } = counted;
    const members = await Promise.all(groups.map((group) => columns.valuesOf(caller, groupSource(group))));
    const classOf = (id: number) => {
      const at = members.findIndex((member) => member.valueOf(id) !== null);
      return at < 0 ? groups.length : at;
    };
    const name = classesFor(index, JSON.stringify(['groups', groups, members.map((member) => member.generation)]), groups.length + 1, classOf);
    return { name, groupOf: (id: number) => groups[classOf(id)] ?? null };
  };

  /** Runs a change on the index now, or after its build when one is under way. */
  const onIndex = (index: Index, change: () => Promise<void>) => (index.heard ? (index.heard.push(change), Promise.resolve()) : change());

  const readFlags = async (tenantId: string, kind: FlagKind) => {
    const key = flagKey(tenantId, kind);
    flagTimers.delete(key);
    reading.add(key);
    const startedAt = now();
    try {
      for (const index of ofTenant(tenantId)) await onIndex(index, () => applyFlags(index.grid, tenantId, [kind]));
    } finally {
      flagReads.set(key, { endedAt: now(), tookMs: now() - startedAt });
      reading.delete(key);
      if (changedWhileReading.delete(key)) flagChanged(tenantId, kind);
      else flagsSettled(key);
    }
  };

  /** Who has the flag may have changed: read soon (once for a burst of changes). */
  const flagChanged = (tenantId: string, kind: FlagKind) => {
    const key = flagKey(tenantId, kind);
    if (reading.has(key)) {
      changedWhileReading.add(key);
      return;
    }
    if (flagTimers.has(key) || !ofTenant(tenantId).length) return;
    awaitFlags(key);
    const last = flagReads.get(key);
    const wait = Math.max(FLAGS_AFTER_MS, last ? last.endedAt + FLAGS_SPACING * last.tookMs - now() : 0);
    flagTimers.set(key, setTimeout(() => void readFlags(tenantId, kind).catch(() => { /* the next change or build corrects it */ }), wait));
  };

  return {
    /** The viewport's clusters and devices (src/schemas/mapClusters.ts); with `counted`, each cluster counts its devices by it. */
    async view(caller: Caller, query: Omit<MapClustersQuery, 'rules' | 'groups'>, counted?: ClusterClasses): Promise<MapClusters> {
      const { region, level, attribute, ...viewport } = query;
      const index = await indexFor(caller, { region, level });
      const pending = KINDS.flatMap((kind) => flagsCurrent.get(flagKey(caller.tenantId, kind))?.settled ?? []);
      if (pending.length) await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, FLAGS_WAIT_MS).unref())]);
      // counted, every device's value or membership is needed: the tenant's columns of them
      const classing = counted && await countedBy(caller, index, attribute, counted);
      const view = index.grid.view(viewport, classing?.name);
      if (!view) throw answerTooLarge(MAX_VIEWPORT_CELLS, 'zoom');
      if (classing?.groupOf) {
        for (const point of view.points) point[7] = classing.groupOf(point[0]);
      }
      if (classing?.valueOf) {
        for (const point of view.points) point[6] = classing.valueOf(point[0]);
      } else if (attribute !== undefined && view.points.length) {
        const found = await db.tenantQuery<{ id: number; value: unknown }>(caller.tenantId, attributeValuesQuery(view.points.map(([id]) => id), attribute));
        const values = new Map(found.map(({ id, value }) => [id, value]));
        for (const point of view.points) point[6] = values.get(point[0]) ?? null;
      }
      return view;
    },

    /** An entity changed: its place in each of the tenant's grids, or its `active` flag. */
    async entityChanged(tenantId: string, change: MapEntityChange) {
      const { id, diff } = change;
      columns.entityChanged(tenantId, change);
      await Promise.all(ofTenant(tenantId).map((index) => onIndex(index, async () => {
        if (diff.deleted) {
          index.grid.remove(id);
        } else if (PLACE_FIELDS.some((field) => field in diff)) {
          index.grid.remove(id);
          const [{ rows }] = await db.tenantQuery<{ rows: string | null }>(tenantId, mapIndexRowsQuery(index.scope, { only: id }));
          fileRows(index.grid, rows);
        } else {
          if (typeof (diff.attributes as { active?: unknown } | undefined)?.active === 'boolean') {
            const flags = index.grid.flagsOf(id);
            const offline = (diff.attributes as { active: boolean }).active ? 0 : DEVICE_FLAGS.offline;
            if (flags !== undefined) index.grid.setFlags(id, (flags & ~DEVICE_FLAGS.offline) | offline);
          }
          if (diff.attributes || diff.group_ids) index.grid.reclass(id);
        }
      })));
    },

    /** A record of `model` changed: the flags it may change are read again soon. */
    flagsChanged(tenantId: string, model: string) {
      for (const kind of KINDS) if ((FLAG_KINDS[kind].models as readonly string[]).includes(model)) flagChanged(tenantId, kind);
    },

    /** A group changed or went: its members are read again when next counted. */
    groupChanged(tenantId: string, group: number) {
      columns.groupChanged(tenantId, group);
    },

    /** Changes may have been missed (events of other instances lost): every grid is built again on its next read. */
    forget() {
      indexes.clear();
      columns.forget();
    },

    close() {
      for (const timer of flagTimers.values()) clearTimeout(timer);
      flagTimers.clear();
      for (const key of [...flagsCurrent.keys()]) flagsSettled(key);
      indexes.clear();
      columns.forget();
    },
  };
}

export type MapIndexService = ReturnType<typeof mapIndexService>;
