// The values of the attribute a map colours by, per tenant, for the clusters of GET /map-clusters to
// count their devices by the colouring rules (mapIndexService.ts). A column is read once from the
// database — by the first caller, as one of their budgeted reads, a window of ids at a time — and
// then kept current by the entity changes the map's grids hear, like them built again in the
// background once older than MAX_AGE_MS. The columns together hold at most `maxValues` values; the
// least recently used go first.
import type { Caller } from '../auth/caller.ts';
import type { Database } from '../db/database.ts';
import { attributeColumnQuery, inIdWindows } from '../db/mapIndexQueries.ts';
import type { ReadBudget } from './readBudget.ts';

const MAX_AGE_MS = 10 * 60_000;
/** Values the columns of all tenants hold at most (~60 bytes each). */
const MAX_VALUES = 2_000_000;

interface Column {
  tenantId: string;
  attribute: string;
  values: Map<number, unknown>;
  /** Counts the builds: what was derived from an earlier one may miss changes it never heard. */
  generation: number;
  ready: Promise<void>;
  builtAt: number;
  /** While being built: the changes heard meanwhile (undefined: the attribute was removed), applied once it is. */
  heard?: Map<number, unknown>;
  rebuilding?: boolean;
}

/** An entity's change as the map hears it: the whole record (a resource change) or what changed (`attributes`: the changed keys). */
export interface AttributeChange { id: number; diff: Record<string, unknown>; whole?: boolean }

export interface AttributeValues { valueOf(id: number): unknown; generation: number }

export interface AttributeColumnOptions { maxValues?: number; now?: () => number }

export function mapAttributeColumns(db: Database, budget: ReadBudget, options: AttributeColumnOptions = {}) {
  const { maxValues = MAX_VALUES, now = Date.now } = options;
  /** In order of last use, the latest last. */
  const columns = new Map<string, Column>();
  const keyOf = (tenantId: string, attribute: string) => `${tenantId}:${attribute}`;

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
    evict();
  };

  const evict = () => {
    let held = 0;
    for (const column of columns.values()) held += column.values.size;
    for (const [key, column] of columns) {
      if (held <= maxValues || columns.size === 1) return;
      held -= column.values.size;
      columns.delete(key);
    }
  };

  return {
    /** The tenant's entities' values of `attribute` as they are whenever asked (null for an entity without it), and the column's build. */
    async valuesOf(caller: Caller, attribute: string): Promise<AttributeValues> {
      const key = keyOf(caller.tenantId, attribute);
      let column = columns.get(key);
      if (!column) {
        const created: Column = { tenantId: caller.tenantId, attribute, values: new Map(), generation: 0, ready: Promise.resolve(), builtAt: 0 };
        created.ready = build(created, caller).catch((error: unknown) => {
          columns.delete(key);
          throw error;
        });
        column = created;
      } else if (!column.rebuilding && !column.heard && now() - column.builtAt > MAX_AGE_MS) {
        const stale = column;
        stale.rebuilding = true;
        void build(stale).catch(() => { /* the old values keep answering; the next read tries again */ }).finally(() => { stale.rebuilding = false; });
      }
      columns.delete(key);
      columns.set(key, column);
      await column.ready;
      const held = column;
      return { valueOf: (id) => held.values.get(id) ?? null, generation: held.generation };
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
