// The values of the attribute a map colours by, per tenant, for the clusters of GET /map-clusters to
// count their devices by the colouring rules (mapIndexService.ts). A column is read from the
// database on first use (server/cache/builtOnUse.ts: by the first caller, as one of their budgeted
// reads, a window of ids at a time, built again in the background once older than MAX_AGE_MS) and
// kept current by the entity changes the map's grids hear. The columns together hold at most
// `maxValues` values; the least recently used go first.
import type { Caller } from '../auth/caller.ts';
import { builtOnUse, type BuiltEntry } from '../cache/builtOnUse.ts';
import type { Database } from '../db/database.ts';
import { attributeColumnQuery, inIdWindows } from '../db/mapIndexQueries.ts';
import type { ReadBudget } from './readBudget.ts';

const MAX_AGE_MS = 10 * 60_000;
/** Values the columns of all tenants hold at most (~60 bytes each). */
const MAX_VALUES = 2_000_000;

interface Column extends BuiltEntry {
  tenantId: string;
  attribute: string;
  values: Map<number, unknown>;
  /** Counts the builds: what was derived from an earlier one may miss changes it never heard. */
  generation: number;
  /** While being built: the changes heard meanwhile (undefined: the attribute was removed), applied once it is. */
  heard?: Map<number, unknown>;
}

/** An entity's change as the map hears it: the whole record (a resource change) or what changed (`attributes`: the changed keys). */
export interface AttributeChange { id: number; diff: Record<string, unknown>; whole?: boolean }

export interface AttributeValues { valueOf(id: number): unknown; generation: number }

export interface AttributeColumnOptions { maxValues?: number; now?: () => number }

export function mapAttributeColumns(db: Database, budget: ReadBudget, options: AttributeColumnOptions = {}) {
  const { maxValues = MAX_VALUES, now = Date.now } = options;
  const kept = builtOnUse<Column>({ maxAgeMs: MAX_AGE_MS, maxSize: maxValues, sizeOf: (column) => column.values.size, now });
  const columns = kept.entries;

  const setValue = (values: Map<number, unknown>, id: number, value: unknown) => {
    if (value === undefined || value === null) values.delete(id);
    else values.set(id, value);
  };

  const read = ({ tenantId, attribute }: Column, values: Map<number, unknown>) =>
    inIdWindows<{ pairs: string | null }>(db, tenantId, (window) => attributeColumnQuery(attribute, window), ({ pairs }) => {
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
      column.generation++;
    } finally {
      for (const [id, value] of column.heard) setValue(column.values, id, value);
      column.heard = undefined;
    }
    kept.evict();
  };

  return {
    /** The tenant's entities' values of `attribute` as they are whenever asked (null for an entity without it), and the column's build. */
    async valuesOf(caller: Caller, attribute: string): Promise<AttributeValues> {
      const column = await kept.take(`${caller.tenantId}:${attribute}`,
        () => ({ tenantId: caller.tenantId, attribute, values: new Map(), generation: 0, ready: Promise.resolve(), builtAt: 0 }),
        (created, first) => build(created, first ? caller : undefined));
      return { valueOf: (id) => column.values.get(id) ?? null, generation: column.generation };
    },

    /** An entity changed: its value in each of the tenant's columns. */
    entityChanged(tenantId: string, { id, diff, whole }: AttributeChange) {
      const attributes = diff.attributes as Record<string, unknown> | null | undefined;
      for (const column of columns.values()) {
        if (column.tenantId !== tenantId) continue;
        let value: unknown;
        if (diff.deleted) value = undefined;
        else if (whole) value = attributes?.[column.attribute];
        else if (attributes && column.attribute in attributes) value = attributes[column.attribute];
        else continue;
        if (column.heard) column.heard.set(id, value);
        setValue(column.values, id, value);
      }
    },

    /** Changes may have been missed: every column is read again on its next use. */
    forget() {
      columns.clear();
    },
  };
}

export type MapAttributeColumns = ReturnType<typeof mapAttributeColumns>;
