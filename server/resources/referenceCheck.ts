// Every id a write names must be a row of the caller's tenant: reference fields at the top of the
// record, inside objects (`interface.fk_gateway_id`) and in the items of lists
// (`query.entity_ids`), and the id-list fields kept in link tables. An id of another tenant is
// answered exactly like an id that exists nowhere (400 REFERENCE_NOT_FOUND): the answer must not
// tell that it exists. Row-level security hides other tenants' rows; the tenant condition is the
// second lock. A record of a granted model (a board) the caller holds no grant on does not exist
// for it either; one it holds too little on for the write is a 403.
import { getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { columnsByName } from '../db/columnKeys.ts';
import type { Tx } from '../db/database.ts';
import { grantedRowsOf, tenantRowsAmong, type GrantedRows } from '../db/resourceQueries.ts';
import { ApiError } from '../errors.ts';
import type { Caller } from '../auth/caller.ts';
import type { Grant, GrantedReference, ModelBinding, Reference, ReferenceKind, ReferenceTarget } from './bindings.ts';
import { checkReferencedGrant } from './resourceAccess.ts';
import { modelOf } from './resourceModel.ts';

type RecordData = Record<string, unknown>;

/** A resolved target: the column the ids are values of, optionally only rows of a kind, or records of a granted model held at least `needs`. */
interface Target { key: string; column: PgColumn; kind?: ReferenceKind; granted?: GrantedRows & { needs: Grant; noun: string } }

/** One place of the record holding ids: its concrete path (`query.1.entity_ids`), the ids and where they may be (any of the targets). */
interface Place { field: string; ids: unknown[]; targets: Target[] }

function grantedTarget(reference: GrantedReference, caller: Caller): Target {
  const { storage, binding } = modelOf(reference.model);
  const column = reference.column ? columnsByName(storage.table).get(reference.column)! : storage.id;
  return {
    key: `${reference.model}.${column.name}.${reference.needs}`, column,
    granted: { ...grantedRowsOf(storage, caller.userId), needs: reference.needs, noun: binding.grants!.noun },
  };
}

function resolved(target: ReferenceTarget, caller: Caller): Target {
  if ('model' in target) return grantedTarget(target, caller);
  const { column, kind } = 'column' in target ? target : { column: columnsByName(target as PgTable).get('id')!, kind: undefined };
  return { key: `${getTableName(column.table)}.${column.name}.${kind?.column.name ?? ''}`, column, kind };
}

function targetsOf(reference: Reference, holder: RecordData, caller: Caller): Target[] {
  const chosen = typeof reference === 'function' ? reference(holder) : reference;
  if (!chosen) return [];
  return (Array.isArray(chosen) ? chosen : [chosen]).map((target) => resolved(target as ReferenceTarget, caller));
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

/**
 * The places of `record` holding ids: declared references first, then link fields (the order
 * refusals are reported in). A link field a granted model's records are reached through names
 * records of the granted model the caller may change them on.
 */
function placesOf(binding: ModelBinding, record: RecordData, caller: Caller): Place[] {
  const through = binding.grants?.through;
  const linkTarget = (field: string, target: () => PgTable): Reference =>
    (through?.field === field ? { model: through.model, needs: binding.grants!.needs.update ?? 'edit' } : target());
  const references: [string, Reference][] = [
    ...Object.entries(binding.references ?? {}),
    ...Object.entries(binding.links ?? {}).map(([field, link]) => [field, linkTarget(field, link.target)] as [string, Reference]),
  ];
  return references.flatMap(([path, reference]) => [...valuesAt(record, path.split('.'))].map(({ field, value, holder }) =>
    ({ field, ids: Array.isArray(value) ? value : [value], targets: targetsOf(reference, holder, caller) })));
}

/** Uuids compare without letter case (PostgreSQL answers them in lower case). */
const idKey = (id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id);

interface Found { ofKind: boolean; grant: number | null }

/**
 * Throws 400 REFERENCE_NOT_FOUND for the first id that is not a row of the tenant (or the kind's
 * code for a row of another kind, or 403 for a granted record held too little on).
 */
export async function checkReferences(tx: Tx, binding: ModelBinding, caller: Caller, record: RecordData): Promise<void> {
  const places = placesOf(binding, record, caller).filter((place) => place.ids.length);
  const targets = new Map(places.flatMap((place) => place.targets.map((target) => [target.key, target] as const)));
  /** per target: id → what was found of it */
  const found = new Map<string, Map<unknown, Found>>();
  for (const [key, { column, kind, granted }] of targets) {
    const ids = [...new Set(places.filter((place) => place.targets.some((target) => target.key === key)).flatMap((place) => place.ids))];
    const rows = await tenantRowsAmong(tx, column, kind?.column, caller.tenantId, ids, granted);
    // a granted record the caller holds no grant on does not exist for it
    found.set(key, new Map(rows.filter((row) => !granted || row.grant !== null).map((row) => [idKey(row.id), { ofKind: row.ofKind, grant: row.grant }])));
  }
  for (const { field, ids, targets: among } of places) {
    for (const id of ids) {
      const target = among.find((candidate) => found.get(candidate.key)!.has(idKey(id)));
      const row = target && found.get(target.key)!.get(idKey(id))!;
      if (!row) throw new ApiError(400, 'REFERENCE_NOT_FOUND', `${field}: ${id} does not exist`, field, { id: id as number | string });
      if (!row.ofKind) throw new ApiError(400, target.kind!.code, `${field}: ${id} is not ${target.kind!.noun}`, field, { id: id as number | string });
      if (target.granted) checkReferencedGrant(target.granted.noun, Number(row.grant), target.granted.needs, field);
    }
  }
}
