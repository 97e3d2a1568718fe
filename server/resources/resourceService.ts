// The generic service behind every model (src/schemas/models.ts): tenant-scoped list, get,
// create, update and delete. It orchestrates: authorize the action (resourceAccess.ts) before
// reading the input, validate it (the model's schemas) and the permissions of its fields, check
// the ids it names (referenceCheck.ts), run the model's rules (rules/), write through the
// statements (server/db/resourceQueries.ts), and after each commit publish the change and the
// records the rules changed with it (live bus, caches). The REST and GraphQL doors are thin doors
// to it. Row-level security scopes every statement to the caller's tenant; the statements' scope
// is the second lock.
import type { FieldSchema } from '../../src/schemas/model.ts';
import type { Database, Tx } from '../db/database.ts';
import { deleteRow, findRow, insertRow, listRows, updateRow, writeLinks, type RecordScope } from '../db/resourceQueries.ts';
import { ApiError, notFound } from '../errors.ts';
import type { ResourceChange } from '../live/resourceEvents.ts';
import { validated } from '../schemaValidator.ts';
import type { Caller } from '../services/caller.ts';
import { filtersKey, type TenantReadCache } from '../services/tenantReadCache.ts';
import { listPageOf, type ListQuery } from './listQuery.ts';
import { serverColumns, toColumns, toRecord, type RecordData } from './recordMapping.ts';
import { checkReferences } from './referenceCheck.ts';
import { authorize, checkWritePermissions, visibilityKey, visibleRecord } from './resourceAccess.ts';
import { modelOf, type Model } from './resourceModel.ts';
import type { FollowOnChanges, RuleContext } from './rules/types.ts';
import { refusingConflicts } from './uniqueConflicts.ts';

export type { ListQuery, RecordData };

export interface ListResult { rows: RecordData[]; total: number; page: number; per_page: number }

export interface ResourceServiceOptions {
  /** Called after each committed change (live bus, caches). */
  onChange(tenantId: string, change: ResourceChange): void;
  /** Where lists of models bound with `cached` are kept until their tenant's data changes. */
  cache?: TenantReadCache;
}

/** A list page as JSON text (what REST sends as it is) and the total. */
export interface ListJson { json: string; total: number; page: number; per_page: number }

/** A record of a batch refused: its place (1-based), the field (without the `input.` prefix) and why. */
const refusalOf = (row: number, error: ApiError) =>
  ({ row, field: (error.items[0].field ?? '').replace(/^input\.?/, ''), message: error.items[0].message });

/**
 * Whether an update carries a stored field into the record it checks and writes. Read-only fields
 * are the server's. A field guarded by a permission (the device's access token) is kept as stored
 * unless the patch names it: it is a secret the caller may not even see, and one chosen under an
 * earlier rule (a shorter token) must not make the entity impossible to edit.
 */
const keptByUpdate = (schema: FieldSchema | undefined, patched: boolean) => !schema?.readOnly && (patched || !schema?.['x-permission']);

const scopeOf = (caller: Caller): RecordScope => ({ tenantId: caller.tenantId, userId: caller.userId });

/** What the model's rules are given inside a write's transaction. */
const ruleContext = (tx: Tx, caller: Caller): RuleContext => ({ tx, caller, selectionOf: (name) => modelOf(name).storage.selection });

/** Whose record it is on an owner-scoped model (its changes reach that user only); undefined on the others. */
const ownerOf = (model: Model, record: RecordData) => {
  const field = model.schema['x-owner'];
  return field ? String(record[field]) : undefined;
};

export function resourceService(db: Database, options: ResourceServiceOptions) {
  const findRecord = async (tx: Tx, model: Model, caller: Caller, id: number): Promise<RecordData> => {
    const row = await findRow(tx, model.storage, scopeOf(caller), id);
    if (!row) throw notFound(model.binding.rules?.notFound);
    return toRecord(model, row);
  };

  /** Writes the link tables of the id-list fields present in `record`. */
  const writeLinkFields = async (tx: Tx, model: Model, caller: Caller, id: number, record: RecordData, replace: boolean) => {
    for (const [field, link] of Object.entries(model.binding.links ?? {})) {
      if (field in record) await writeLinks(tx, link, caller.tenantId, id, (record[field] ?? []) as number[], replace);
    }
  };

  /** Inserts one checked record with its links and rules, in `tx`; answers it as stored. */
  const insertRecord = async (tx: Tx, model: Model, caller: Caller, record: RecordData) => {
    await checkReferences(tx, model.binding, caller.tenantId, record);
    const columns = { ...toColumns(model, record), ...serverColumns(model, caller, true) };
    await model.binding.rules?.beforeWrite?.(ruleContext(tx, caller), record, columns);
    const id = await refusingConflicts(model.binding, () => insertRow(tx, model.storage, columns));
    await refusingConflicts(model.binding, () => writeLinkFields(tx, model, caller, id, record, false));
    await model.binding.rules?.afterWrite?.(ruleContext(tx, caller), id, record);
    return findRecord(tx, model, caller, id);
  };

  /** A create input validated by the model's schema, its fields' permissions checked. */
  const checkedInput = (caller: Caller, model: Model, input: RecordData) => {
    const record = validated<RecordData>(model.createSchema, input, 'input');
    checkWritePermissions(caller, model.schema.properties, record);
    return record;
  };

  /** Publishes a committed change; on an owner-scoped model it reaches the record's owner only. */
  const publish = (tenantId: string, model: Model, action: ResourceChange['action'], id: number, record: RecordData | null, removed?: RecordData, notify?: string[]) =>
    options.onChange(tenantId, { resource: model.name, action, id, record, removed, owner: ownerOf(model, (record ?? removed)!), notify });

  /** Publishes the records a rule changed with a committed write, as updates of their own models. */
  const publishFollowOn = (tenantId: string, changes: FollowOnChanges[]) => {
    for (const change of changes) {
      const model = modelOf(change.model);
      for (const row of change.rows) {
        const record = toRecord(model, row);
        publish(tenantId, model, 'updated', record.id as number, record);
      }
    }
  };

  const queryList = async (caller: Caller, model: Model, query: ListQuery): Promise<ListResult> => {
    const { read, ...page } = listPageOf(model, query);
    const { rows, total } = await db.tenantTx(caller.tenantId, (tx) => listRows(tx, model.storage, scopeOf(caller), read));
    return { rows: rows.map((row) => visibleRecord(caller, model.schema, toRecord(model, row))), total, ...page };
  };

  return {
    async list(caller: Caller, name: string, rawQuery: ListQuery): Promise<ListResult> {
      const { json, ...page } = await this.listJson(caller, name, rawQuery);
      return { rows: JSON.parse(json), ...page };
    },

    /**
     * A list page as JSON text. Models bound with `cached` (tables whose triggers announce every
     * change, migration 0003) keep it per tenant, query and what the caller may see, until the
     * tenant's data changes: the watcher list is polled by every open app.
     */
    async listJson(caller: Caller, name: string, rawQuery: ListQuery): Promise<ListJson> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'read');
      const query = validated<ListQuery>(model.listSchema, rawQuery, 'querystring');
      const cache = model.binding.cached ? options.cache : undefined;
      const key = `list:${name}:${visibilityKey(caller, model.schema)}:${filtersKey(query)}`;
      const hit = cache?.get(caller.tenantId, key);
      if (hit !== undefined) return JSON.parse(hit) as ListJson;
      const version = cache?.version(caller.tenantId) ?? 0;
      const { rows, ...page } = await queryList(caller, model, query);
      const answer: ListJson = { ...page, json: JSON.stringify(rows) };
      cache?.set(caller.tenantId, key, JSON.stringify(answer), version);
      return answer;
    },

    async get(caller: Caller, name: string, id: number): Promise<RecordData> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'read');
      const record = await db.tenantTx(caller.tenantId, (tx) => findRecord(tx, model, caller, id));
      return visibleRecord(caller, model.schema, record);
    },

    async create(caller: Caller, name: string, input: RecordData): Promise<RecordData> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'create');
      const record = checkedInput(caller, model, input);
      const created = await db.tenantTx(caller.tenantId, (tx) => insertRecord(tx, model, caller, record));
      publish(caller.tenantId, model, 'created', created.id as number, created);
      return visibleRecord(caller, model.schema, created);
    },

    /**
     * Several records in one transaction: every one is checked first, and when any is refused
     * (or `dryRun`) nothing is written; the refusals name the record (1-based) and the field.
     */
    async createMany(caller: Caller, name: string, inputs: RecordData[], dryRun: boolean): Promise<{ created: number; refused: { row: number; field: string; message: string }[] }> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'create');
      const refused: { row: number; field: string; message: string }[] = [];
      const records = inputs.map((input, index) => {
        try {
          return checkedInput(caller, model, input);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          refused.push(refusalOf(index + 1, error));
          return undefined;
        }
      });
      if (refused.length || dryRun) return { created: 0, refused };
      try {
        const created = await db.tenantTx(caller.tenantId, async (tx) => {
          const rows: RecordData[] = [];
          for (const [index, record] of records.entries()) {
            try {
              rows.push(await insertRecord(tx, model, caller, record!));
            } catch (error) {
              if (error instanceof ApiError) throw Object.assign(error, { row: index + 1 });
              throw error;
            }
          }
          return rows;
        });
        for (const record of created) publish(caller.tenantId, model, 'created', record.id as number, record);
        return { created: created.length, refused: [] };
      } catch (error) {
        const row = (error as { row?: number }).row;
        if (!(error instanceof ApiError) || row === undefined) throw error;
        return { created: 0, refused: [refusalOf(row, error)] };
      }
    },

    async update(caller: Caller, name: string, input: RecordData): Promise<RecordData> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'update');
      const { id, ...patch } = validated<RecordData>(model.updateSchema, input, 'input');
      checkWritePermissions(caller, model.schema.properties, patch);
      const updated = await db.tenantTx(caller.tenantId, async (tx) => {
        const previous = await findRecord(tx, model, caller, id as number);
        const writable = Object.fromEntries(Object.entries(previous).filter(([field]) => keptByUpdate(model.schema.properties[field], field in patch)));
        // the whole record after the change must satisfy the model (required fields, if/then rules)
        const record = validated<RecordData>(model.createSchema, { ...writable, ...patch }, 'input');
        await checkReferences(tx, model.binding, caller.tenantId, patch);
        const columns = { ...toColumns(model, record), ...serverColumns(model, caller, false) };
        await model.binding.rules?.beforeWrite?.(ruleContext(tx, caller), record, columns, id as number);
        await refusingConflicts(model.binding, () => updateRow(tx, model.storage, scopeOf(caller), id as number, columns));
        await refusingConflicts(model.binding, () => writeLinkFields(tx, model, caller, id as number, patch, true));
        await model.binding.rules?.afterWrite?.(ruleContext(tx, caller), id as number, record, previous);
        return findRecord(tx, model, caller, id as number);
      });
      publish(caller.tenantId, model, 'updated', id as number, updated);
      return visibleRecord(caller, model.schema, updated);
    },

    /**
     * Publishes a record an engine changed or wrote outside the doors (a watcher's alert, a log), as
     * it now is (nothing when it is not there: its transaction rolled back); `notify` makes it an
     * in-app notification for those users.
     */
    async publishEngineChange(tenantId: string, name: string, id: number, change: { action?: 'created' | 'updated'; notify?: string[] } = {}): Promise<void> {
      const model = modelOf(name);
      const row = await db.tenantTx(tenantId, (tx) => findRow(tx, model.storage, { tenantId, userId: '' }, id));
      if (row) publish(tenantId, model, change.action ?? 'updated', id, toRecord(model, row), undefined, change.notify);
    },

    async remove(caller: Caller, name: string, id: number): Promise<{ id: number }> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'delete');
      const { removed, followOn } = await db.tenantTx(caller.tenantId, async (tx) => {
        const record = await findRecord(tx, model, caller, id);
        await model.binding.rules?.beforeDelete?.(ruleContext(tx, caller), id, record);
        await deleteRow(tx, model.storage, scopeOf(caller), id);
        const changed = await model.binding.rules?.afterDelete?.(ruleContext(tx, caller), id, record);
        return { removed: record, followOn: changed ?? [] };
      });
      publish(caller.tenantId, model, 'deleted', id, null, removed);
      publishFollowOn(caller.tenantId, followOn);
      return { id };
    },
  };
}
export type ResourceService = ReturnType<typeof resourceService>;
