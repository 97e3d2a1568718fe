// Every id a write names must be a row of the caller's tenant: reference fields at the top of the
// record, inside objects (`interface.fk_gateway_id`) and in the items of lists
// (`query.entity_ids`), and the id-list fields kept in link tables. An id of another tenant is
// answered exactly like an id that exists nowhere (400 REFERENCE_NOT_FOUND): the answer must not
// tell that it exists. Row-level security hides other tenants' rows; the tenant condition is the
// second lock.
import { getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { columnsByName } from '../db/columnKeys.ts';
import type { Tx } from '../db/database.ts';
import { tenantRowsAmong } from '../db/resourceQueries.ts';
import { ApiError } from '../errors.ts';
import type { ModelBinding, Reference, ReferenceKind } from './bindings.ts';

type RecordData = Record<string, unknown>;

/** A resolved target: the column the ids are values of, optionally only rows of a kind. */
interface Target { key: string; column: PgColumn; kind?: ReferenceKind }

/** One place of the record holding ids: its concrete path (`query.1.entity_ids`), the ids and where they must be. */
interface Place { field: string; ids: unknown[]; target?: Target }

function targetOf(reference: Reference, holder: RecordData): Target | undefined {
  const chosen = typeof reference === 'function' ? reference(holder) : reference;
  if (!chosen) return undefined;
  const { column, kind } = 'column' in chosen ? chosen : { column: columnsByName(chosen as PgTable).get('id')!, kind: undefined };
  return { key: `${getTableName(column.table)}.${column.name}.${kind?.column.name ?? ''}`, column, kind };
}

/** Each value at `path` in `value`, with its concrete path and the object holding it; lists on the way are walked item by item. */
function* valuesAt(value: unknown, path: string[], at: string[] = []): Generator<{ field: string; value: unknown; holder: RecordData }> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* valuesAt(item, path, [...at, String(index)]);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const [name, ...rest] = path;
  const next = (value as RecordData)[name];
  if (rest.length) yield* valuesAt(next, rest, [...at, name]);
  else if (next != null) yield { field: [...at, name].join('.'), value: next, holder: value as RecordData };
}

/** The places of `record` holding ids: declared references first, then link fields (the order refusals are reported in). */
function placesOf(binding: ModelBinding, record: RecordData): Place[] {
  const references: [string, Reference][] = [
    ...Object.entries(binding.references ?? {}),
    ...Object.entries(binding.links ?? {}).map(([field, link]) => [field, link.target()] as [string, Reference]),
  ];
  return references.flatMap(([path, reference]) => [...valuesAt(record, path.split('.'))].map(({ field, value, holder }) =>
    ({ field, ids: Array.isArray(value) ? value : [value], target: targetOf(reference, holder) })));
}

/** Uuids compare without letter case (PostgreSQL answers them in lower case). */
const idKey = (id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id);

/** Throws 400 REFERENCE_NOT_FOUND for the first id that is not a row of the tenant (or the kind's code for a row of another kind). */
export async function checkReferences(tx: Tx, binding: ModelBinding, tenantId: string, record: RecordData): Promise<void> {
  const places = placesOf(binding, record).filter((place) => place.ids.length);
  const targets = new Map(places.flatMap((place) => (place.target ? [[place.target.key, place.target] as const] : [])));
  /** per target: id → whether the row is of the kind asked for */
  const found = new Map<string, Map<unknown, boolean>>();
  for (const [key, { column, kind }] of targets) {
    const ids = [...new Set(places.filter((place) => place.target?.key === key).flatMap((place) => place.ids))];
    const rows = await tenantRowsAmong(tx, column, kind?.column, tenantId, ids);
    found.set(key, new Map(rows.map((row) => [idKey(row.id), row.ofKind])));
  }
  for (const { field, ids, target } of places) {
    for (const id of ids) {
      const ofKind = target && found.get(target.key)!.get(idKey(id));
      if (ofKind === undefined) throw new ApiError(400, 'REFERENCE_NOT_FOUND', `${field}: ${id} does not exist`, field, { id: id as number | string });
      if (!ofKind) throw new ApiError(400, target!.kind!.code, `${field}: ${id} is not ${target!.kind!.noun}`, field, { id: id as number | string });
    }
  }
}
