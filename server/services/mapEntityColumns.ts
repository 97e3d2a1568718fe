// What the map's clusters count their devices by (GET /map-clusters, mapIndexService.ts), per tenant:
// the values of the attribute a map colours by (its rules), and the members of the groups it
// colours (a group's column holds `true` for each member). A column is read from the database on
// first use (server/cache/builtOnUse.ts: by the first caller, as one of their budgeted reads, a
// window of ids at a time, built again in the background once older than MAX_AGE_MS) and kept
// current by the entity changes the map's grids hear. The columns together hold at most
// `maxValues` values; the least recently used go first.
import type { SQL } from 'drizzle-orm';
import type { Caller } from '../auth/caller.ts';
import { builtOnUse, type BuiltEntry } from '../cache/builtOnUse.ts';
import type { Database } from '../db/database.ts';
import { inIdWindows, type IdWindow } from '../db/idWindows.ts';
import { attributeColumnQuery, groupColumnQuery } from '../db/mapIndexQueries.ts';
import type { ReadBudget } from './readBudget.ts';

const MAX_AGE_MS = 10 * 60_000;
/** Values the columns of all tenants hold at most (~60 bytes each). */
const MAX_VALUES = 2_000_000;

/** An entity's change as the map hears it: the whole record (a resource change) or what changed (`attributes`: the changed keys). */
export interface EntityChange { id: number; diff: Record<string, unknown>; whole?: boolean }

/** A change that leaves a column's value of the entity as it is. */
const UNCHANGED = Symbol('unchanged');

/** Where a column's values come from: the query of a window of ids, and an entity's value after a change. */
export interface ColumnSource {
  /** Names the column among the tenant's. */
  key: string;
  /** `[[id, value], …]` as JSON text (column `pairs`) for a window of ids. */
  query(window: IdWindow): SQL;
  valueAfter(change: EntityChange): unknown;
}

/** The values of an entity attribute (`attributes.<name>`). */
export const attributeSource = (attribute: string): ColumnSource => ({
  key: `attribute:${attribute}`,
  query: (window) => attributeColumnQuery(attribute, window),
  valueAfter({ diff, whole }) {
    const attributes = diff.attributes as Record<string, unknown> | null | undefined;
    if (whole) return attributes?.[attribute];
    return attributes && attribute in attributes ? attributes[attribute] : UNCHANGED;
  },
});

/** The members of a group (`true` for each). */
export const groupSource = (group: number): ColumnSource => ({
  key: `group:${group}`,
  query: (window) => groupColumnQuery(group, window),
  valueAfter: ({ diff }) => (Array.isArray(diff.group_ids) ? (diff.group_ids.map(Number).includes(group) || undefined) : UNCHANGED),
});

interface Column extends BuiltEntry {
  tenantId: string;
  source: ColumnSource;
  values: Map<number, unknown>;
  /** Which build of all columns this is: what was derived from another may miss changes it never heard. */
  generation: number;
  /** While being built: the changes heard meanwhile (undefined: no value any more), applied once it is. */
  heard?: Map<number, unknown>;
}

export interface ColumnValues { valueOf(id: number): unknown; generation: number }

export interface EntityColumnOptions { maxValues?: number; now?: () => number }

export function mapEntityColumns(db: Database, budget: ReadBudget, options: EntityColumnOptions = {}) {
  const { maxValues = MAX_VALUES, now = Date.now } = options;
  const kept = builtOnUse<Column>({ maxAgeMs: MAX_AGE_MS, maxSize: maxValues, sizeOf: (column) => column.values.size, now });
  const columns = kept.entries;
  let builds = 0;

  const setValue = (values: Map<number, unknown>, id: number, value: unknown) => {
    if (value === undefined || value === null) values.delete(id);
    else values.set(id, value);
  };

  const read = ({ tenantId, source }: Column, values: Map<number, unknown>) =>
    inIdWindows<{ pairs: string | null }>(db, tenantId, source.query, ({ pairs }) => {
      for (const [id, value] of JSON.parse(pairs ?? '[]') as [number, unknown][]) values.set(id, value);
    });

  /** Reads the column afresh, then applies what was heard meanwhile (to the old values if the read failed). */
  const build = async (column: Column, caller?: Caller) => {
    const values = new Map<number, unknown>();
    column.heard = new Map();
    const builtAt = now();
    try {
      await (caller ? budget.run(caller, () => read(column, values)) : read(column, values));
      column.values = values;
      column.builtAt = builtAt;
      column.generation = ++builds;
    } finally {
      for (const [id, value] of column.heard) setValue(column.values, id, value);
      column.heard = undefined;
    }
    kept.evict();
  };

  return {
    /** The tenant's entities' values from `source` as they are whenever asked (null for an entity without one), and the column's build. */
    async valuesOf(caller: Caller, source: ColumnSource): Promise<ColumnValues> {
      const column = await kept.take(`${caller.tenantId}:${source.key}`,
        () => ({ tenantId: caller.tenantId, source, values: new Map(), generation: 0, ready: Promise.resolve(), builtAt: 0 }),
        (created, first) => build(created, first ? caller : undefined));
      return { valueOf: (id) => column.values.get(id) ?? null, generation: column.generation };
    },

    /** An entity changed: its value in each of the tenant's columns. */
    entityChanged(tenantId: string, change: EntityChange) {
      for (const column of columns.values()) {
        if (column.tenantId !== tenantId) continue;
        const value = change.diff.deleted ? undefined : column.source.valueAfter(change);
        if (value === UNCHANGED) continue;
        if (column.heard) column.heard.set(change.id, value);
        setValue(column.values, change.id, value);
      }
    },

    /** A group changed or went: its column is read again on its next use. */
    groupChanged(tenantId: string, group: number) {
      columns.delete(`${tenantId}:${groupSource(group).key}`);
    },

    /** Changes may have been missed: every column is read again on its next use. */
    forget() {
      columns.clear();
    },
  };
}

export type MapEntityColumns = ReturnType<typeof mapEntityColumns>;
