// The generic service behind every model (src/schemas/models.ts): tenant-scoped list, get,
// create, update and delete. It orchestrates: authorize the action (resourceAccess.ts) before
// reading the input, validate it (the model's schemas) and the permissions of its fields, check
// the ids it names (referenceCheck.ts), run the model's rules (rules/), write through the
// statements (server/db/resourceQueries.ts), and after each commit publish the change and the
// records the rules changed with it (live bus, caches). The REST and GraphQL doors are thin doors
// to it. Row-level security scopes every statement to the caller's tenant; the statements' scope
// is the second lock. On granted models (bindings.ts `grants`: boards and what is reached through
// them) a record the caller holds no grant on is not found, one it holds too little on for the
// action is refused (403), and its changes reach only the users holding a grant on it.
import type { FieldSchema } from '../../src/schemas/model.ts';
import type { Database, Tx } from '../db/database.ts';
import { grantHolders, userParam } from '../db/grantQueries.ts';
import {
  deleteRow, findRow, findRows, GRANT_KEY, insertRow, linkCount, listRows, removeLinks, updateRow, writeLinks, type RecordScope,
} from '../db/resourceQueries.ts';
import { ApiError, answerTooLarge, badRequest, MAX_ANSWER_CHARS, notFound } from '../errors.ts';
import type { PostCommitBus } from '../events/postCommit.ts';
import type { ResourceChange } from '../live/resourceEvents.ts';
import { validated } from '../schemaValidator.ts';
import type { Caller } from '../auth/caller.ts';
import { filtersKey, type TenantReadCache } from '../cache/tenantReadCache.ts';
import { GRANT_RANKS } from './bindings.ts';
import { listPageOf, type ListQuery } from './listQuery.ts';
import { serverColumns, toColumns, toRecord, type RecordData } from './recordMapping.ts';
import { recordJson } from './preparedJson.ts';
import { checkReferences } from './referenceCheck.ts';
import { authorize, checkGrant, checkWritePermissions, grantAllows, visibilityKey, visibleRecord } from './resourceAccess.ts';
import { modelOf, type Model } from './resourceModel.ts';
import type { FollowOnChanges, RuleContext } from './rules/types.ts';
import { refusingConflicts } from './uniqueConflicts.ts';
import type { AdmissionGate } from '../admissionGate.ts';

export type { ListQuery, RecordData };

export interface ListResult { rows: RecordData[]; total: number; page: number; per_page: number }

/**
 * Fills the `completed` fields of a model's answers (bindings.ts) for the caller, in place. With a
 * `gate`, the model's lists are answered through it — their reading, completing and JSON together —
 * so that only so many expensive answers take memory at once.
 */
export type AnswerCompletion = ((caller: Caller, records: RecordData[]) => Promise<void>) & { gate?: AdmissionGate };

export interface ResourceServiceOptions {
  /**
   * Where each committed change is told (`resource.changed`: the read cache, the live bus); from
   * it, the records engines change (`engine.changed`) are read and told as changes too.
   */
  events: PostCommitBus;
  /** Where lists of models bound with `cached` are kept until their tenant's data changes. */
  cache?: TenantReadCache;
  /** Per model, what completes its answers with what other services know (a public-API KPI component's data). */
  completions?: () => Partial<Record<string, AnswerCompletion>>;
  /** What one list answer may hold (characters of its JSON); MAX_ANSWER_CHARS by default. */
  maxAnswerChars?: number;
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
const ruleContext = (tx: Tx, caller: Caller): RuleContext => ({
  tx, caller, selectionOf: (name) => {
    const { storage } = modelOf(name);
    return { ...storage.selection, ...storage.readerSelection?.(userParam(caller.userId)) };
  },
});

/** A change to publish after the commit; on a granted model with the users to tell (`audience`). */
interface SettledChange { model: Model; action: ResourceChange['action']; id: number; record: RecordData | null; removed?: RecordData; audience?: string[] }

/** The users holding a grant on the record (none on models that are not granted). */
const holdersOf = async (tx: Tx, model: Model, id: number) => (model.storage.grants ? grantHolders(tx, model.storage.grants.sql, id) : []);

/** The audience of a granted model's change: who held a grant before and after it, and those named. */
const audienceOf = (model: Model, ...groups: string[][]) =>
  (model.storage.grants ? [...new Set(groups.flat().map((user) => user.toLowerCase()))] : undefined);

/** The link field a granted model's records are reached through, and the links a caller may change on it (at the grant an update needs). */
function throughLinks(model: Model, caller: Caller) {
  const through = model.storage.grants?.through;
  if (!through) return undefined;
  const rank = GRANT_RANKS[model.binding.grants!.needs.update ?? 'edit'];
  return { field: through.field, link: through.link, changeable: through.linkedAtLeast(userParam(caller.userId), rank) };
}

/** Whose record it is on an owner-scoped model (its changes reach that user only); undefined on the others. */
const ownerOf = (model: Model, record: RecordData) => {
  const field = model.schema['x-owner'];
  return field ? String(record[field]) : undefined;
};

/** Each row's JSON, measured as it is written: past `maxChars` for the whole array it stops with a 400 naming the page size. */
function rowsJson(rows: RecordData[], maxChars: number): string[] {
  const parts: string[] = [];
  let length = 2;
  for (const row of rows) {
    const json = recordJson(row);
    length += json.length + 1;
    if (length > maxChars) throw answerTooLarge(maxChars, 'per_page');
    parts.push(json);
  }
  return parts;
}

export function resourceService(db: Database, options: ResourceServiceOptions) {
  /** The record as the caller reads it; 404 when it is not there for the caller, 403 when its grant is too low for `action`. */
  const findRecord = async (tx: Tx, model: Model, caller: Caller, id: number, action: 'read' | 'update' | 'delete' = 'read'): Promise<RecordData> => {
    const found = await findRow(tx, model.storage, scopeOf(caller), id);
    if (!found) throw notFound(model.binding.rules?.notFound);
    const { [GRANT_KEY]: grant, ...row } = found;
    if (model.binding.grants) checkGrant(model.binding.grants, Number(grant), action);
    return toRecord(model, row);
  };

  /** The caller's answers of the model, completed by the model's completion (when it has one). */
  const completed = async (caller: Caller, model: Model, records: RecordData[]): Promise<RecordData[]> => {
    const answers = records.map((record) => visibleRecord(caller, model.schema, record));
    await options.completions?.()[model.name]?.(caller, answers);
    return answers;
  };

  /**
   * Writes the link tables of the id-list fields present in `record`. On the field a granted
   * model is reached through, only the links the caller may change are replaced, and the record
   * must keep one (else no one could see it).
   */
  const writeLinkFields = async (tx: Tx, model: Model, caller: Caller, id: number, record: RecordData, replace: boolean) => {
    const through = throughLinks(model, caller);
    for (const [field, link] of Object.entries(model.binding.links ?? {})) {
      if (!(field in record)) continue;
      await writeLinks(tx, link, caller.tenantId, id, (record[field] ?? []) as number[], replace, through?.field === field ? through.changeable : undefined);
    }
    if (through && (through.field in record || !replace) && !(await linkCount(tx, through.link, id))) {
      throw badRequest('VALIDATION', `${through.field} must name at least one ${model.binding.grants!.noun}`, through.field);
    }
  };

  /**
   * The records a rule changed with a write, settled inside its transaction: on granted models with
   * the users holding a grant on them now, and those the rule names (who just lost theirs).
   */
  const settleFollowOn = async (tx: Tx, changes: FollowOnChanges[] | void): Promise<SettledChange[]> => {
    const settled: SettledChange[] = [];
    for (const change of changes ?? []) {
      const model = modelOf(change.model);
      for (const row of change.rows) {
        const record = toRecord(model, row);
        const id = record.id as number;
        settled.push({ model, action: 'updated', id, record, audience: audienceOf(model, await holdersOf(tx, model, id), change.alsoTo ?? []) });
      }
    }
    return settled;
  };

  /** Inserts one checked record with its links and rules, in `tx`; answers it as stored, and the changes to publish. */
  const insertRecord = async (tx: Tx, model: Model, caller: Caller, record: RecordData): Promise<{ created: RecordData; changes: SettledChange[] }> => {
    await checkReferences(tx, model.binding, caller, record);
    const columns = { ...toColumns(model, record), ...serverColumns(model, caller, true) };
    await model.binding.rules?.beforeWrite?.(ruleContext(tx, caller), record, columns);
    const { id, inserted } = await refusingConflicts(model.binding, () => insertRow(tx, model.storage, columns, model.binding.upsertOn));
    await refusingConflicts(model.binding, () => writeLinkFields(tx, model, caller, id, record, !inserted));
    const followOn = await model.binding.rules?.afterWrite?.(ruleContext(tx, caller), id, record);
    const created = await findRecord(tx, model, caller, id);
    const change: SettledChange = { model, action: inserted ? 'created' : 'updated', id, record: created, audience: audienceOf(model, await holdersOf(tx, model, id)) };
    return { created, changes: [change, ...await settleFollowOn(tx, followOn)] };
  };

  /** A create input validated by the model's schema, its fields' permissions checked. */
  const checkedInput = (caller: Caller, model: Model, input: RecordData) => {
    const record = validated<RecordData>(model.createSchema, input, 'input');
    checkWritePermissions(caller, model.schema.properties, record);
    return record;
  };

  /**
   * Publishes a committed change; on an owner-scoped model it reaches the record's owner only, on a
   * granted one its audience only.
   */
  const publish = (tenantId: string, model: Model, action: ResourceChange['action'], id: number, record: RecordData | null,
    extra: { removed?: RecordData; notify?: string[]; audience?: string[] } = {}) =>
    options.events.emit('resource.changed', { tenantId, change: { resource: model.name, action, id, record, owner: ownerOf(model, (record ?? extra.removed)!), ...extra } });

  /** Publishes the changes of a committed write. */
  const publishAll = (tenantId: string, changes: SettledChange[]) => {
    for (const { model, action, id, record, removed, audience } of changes) publish(tenantId, model, action, id, record, { removed, audience });
  };

  const queryList = async (caller: Caller, model: Model, query: ListQuery): Promise<ListResult> => {
    const { read, ...page } = listPageOf(model, query);
    const { rows, total } = await db.tenantTx(caller.tenantId, (tx) => listRows(tx, model.storage, scopeOf(caller), read));
    const records = rows.map(({ [GRANT_KEY]: _grant, ...row }) => toRecord(model, row));
    return { rows: await completed(caller, model, records), total, ...page };
  };

  const maxAnswerChars = options.maxAnswerChars ?? MAX_ANSWER_CHARS;

  /** A list request checked once: the caller may read the model (first), the query is valid; where its answer may be kept. */
  const listRequest = (caller: Caller, name: string, rawQuery: ListQuery) => {
    const model = modelOf(name);
    authorize(caller, model.schema, 'read');
    const query = validated<ListQuery>(model.listSchema, rawQuery, 'querystring');
    // a granted model's list depends on the caller's grants: never kept
    const cache = model.binding.cached && !model.binding.grants ? options.cache : undefined;
    return { model, query, cache, key: `list:${name}:${visibilityKey(caller, model.schema)}:${filtersKey(query)}` };
  };

  /** The page read, completed and made into its answer through the model's gate (when it has one: what it holds is bounded). */
  const listPage = <T>(caller: Caller, { model, query }: { model: Model; query: ListQuery }, answer: (page: ListResult) => Promise<T>): Promise<T> => {
    const run = async () => answer(await queryList(caller, model, query));
    const gate = options.completions?.()[model.name]?.gate;
    return gate ? gate.run(run) : run();
  };

  /**
   * Publishes records an engine changed or wrote outside the doors (a watcher's alert, logs), as
   * they now are (nothing for one that is not there: its transaction rolled back), read together;
   * `notify` makes one an in-app notification for those users.
   */
  options.events.on('engine.changed', 'resource answers of engine changes', async ({ tenantId, model: name, records, action }) => {
    const model = modelOf(name);
    const rows = await db.tenantTx(tenantId, (tx) => findRows(tx, model.storage, { tenantId, userId: '' }, records.map((record) => record.id)));
    for (const { id, notify } of records) {
      const row = rows.get(id);
      if (row) publish(tenantId, model, action ?? 'updated', id, toRecord(model, row), { notify });
    }
  });

  return {
    /** A list page as records (GraphQL): checked once, never turned into JSON text and back. */
    async list(caller: Caller, name: string, rawQuery: ListQuery): Promise<ListResult> {
      const request = listRequest(caller, name, rawQuery);
      const hit = request.cache?.get(caller.tenantId, request.key);
      if (hit !== undefined) {
        const { json, ...page } = JSON.parse(hit) as ListJson;
        return { rows: JSON.parse(json), ...page };
      }
      return listPage(caller, request, async (page) => {
        rowsJson(page.rows, maxAnswerChars); // the same bound as the JSON answer's
        return page;
      });
    },

    /**
     * A list page as JSON text (REST sends it as it is). Models bound with `cached` (tables whose
     * triggers announce every change, migration 0003) keep it per tenant, query and what the caller
     * may see, until the tenant's data changes: the watcher list is polled by every open app.
     */
    async listJson(caller: Caller, name: string, rawQuery: ListQuery): Promise<ListJson> {
      const request = listRequest(caller, name, rawQuery);
      const hit = request.cache?.get(caller.tenantId, request.key);
      if (hit !== undefined) return JSON.parse(hit) as ListJson;
      const version = request.cache?.version(caller.tenantId) ?? 0;
      const answer = await listPage(caller, request, async ({ rows, ...page }) => ({ ...page, json: `[${rowsJson(rows, maxAnswerChars).join(',')}]` }));
      request.cache?.set(caller.tenantId, request.key, JSON.stringify(answer), version);
      return answer;
    },

    async get(caller: Caller, name: string, id: number): Promise<RecordData> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'read');
      const record = await db.tenantTx(caller.tenantId, (tx) => findRecord(tx, model, caller, id));
      return (await completed(caller, model, [record]))[0];
    },

    /** Records by id in one statement, each as `get` answers it; those `get` would refuse are left out (ask it for why). */
    async getMany(caller: Caller, name: string, ids: readonly number[]): Promise<Map<number, RecordData>> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'read');
      const rows = await db.tenantTx(caller.tenantId, (tx) => findRows(tx, model.storage, scopeOf(caller), ids));
      const records: RecordData[] = [];
      for (const { [GRANT_KEY]: grant, ...row } of rows.values()) {
        if (model.binding.grants && !grantAllows(model.binding.grants, Number(grant), 'read')) continue;
        records.push(toRecord(model, row));
      }
      const answers = await completed(caller, model, records);
      return new Map(answers.map((record) => [Number(record.id), record]));
    },

    async create(caller: Caller, name: string, input: RecordData): Promise<RecordData> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'create');
      const record = checkedInput(caller, model, input);
      const { created, changes } = await db.tenantTx(caller.tenantId, (tx) => insertRecord(tx, model, caller, record));
      publishAll(caller.tenantId, changes);
      return (await completed(caller, model, [created]))[0];
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
        const changes = await db.tenantTx(caller.tenantId, async (tx) => {
          const settled: SettledChange[] = [];
          for (const [index, record] of records.entries()) {
            try {
              settled.push(...(await insertRecord(tx, model, caller, record!)).changes);
            } catch (error) {
              if (error instanceof ApiError) throw Object.assign(error, { row: index + 1 });
              throw error;
            }
          }
          return settled;
        });
        publishAll(caller.tenantId, changes);
        return { created: records.length, refused: [] };
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
      const { updated, changes } = await db.tenantTx(caller.tenantId, async (tx) => {
        const previous = await findRecord(tx, model, caller, id as number, 'update');
        // the permissions of the values changed, as they are stored (those of the new values are checked above)
        checkWritePermissions(caller, model.schema.properties, Object.fromEntries(Object.keys(patch).map((field) => [field, previous[field]])));
        const before = await holdersOf(tx, model, id as number);
        const writable = Object.fromEntries(Object.entries(previous).filter(([field]) => keptByUpdate(model.schema.properties[field], field in patch)));
        // the whole record after the change must satisfy the model (required fields, if/then rules)
        const record = validated<RecordData>(model.createSchema, { ...writable, ...patch }, 'input');
        await checkReferences(tx, model.binding, caller, patch);
        const columns = { ...toColumns(model, record), ...serverColumns(model, caller, false) };
        await model.binding.rules?.beforeWrite?.(ruleContext(tx, caller), record, columns, id as number, previous);
        await refusingConflicts(model.binding, () => updateRow(tx, model.storage, scopeOf(caller), id as number, columns));
        await refusingConflicts(model.binding, () => writeLinkFields(tx, model, caller, id as number, patch, true));
        const followOn = await model.binding.rules?.afterWrite?.(ruleContext(tx, caller), id as number, record, previous);
        const after = await findRecord(tx, model, caller, id as number);
        const audience = audienceOf(model, before, await holdersOf(tx, model, id as number));
        return { updated: after, changes: [{ model, action: 'updated', id: id as number, record: after, audience } as SettledChange, ...await settleFollowOn(tx, followOn)] };
      });
      publishAll(caller.tenantId, changes);
      return (await completed(caller, model, [updated]))[0];
    },

    /**
     * Deletes a record. On a model whose delete names linked records (x-api `deleteLinks`:
     * delete_component(id, board_ids)), the record leaves those (or every one the caller may change,
     * when none are named) and is deleted once it is linked to none.
     */
    async remove(caller: Caller, name: string, id: number, leaving?: unknown): Promise<{ id: number }> {
      const model = modelOf(name);
      authorize(caller, model.schema, 'delete');
      const links = model.schema['x-api'].deleteLinks;
      const named = links && leaving !== undefined
        ? validated<RecordData>({ type: 'object', properties: { [links]: model.schema.properties[links] } }, { [links]: leaving }, 'input')[links] as number[]
        : undefined;
      const changes = await db.tenantTx(caller.tenantId, async (tx): Promise<SettledChange[]> => {
        const record = await findRecord(tx, model, caller, id, 'delete');
        const before = await holdersOf(tx, model, id);
        if (links) {
          if (named) await checkReferences(tx, model.binding, caller, { [links]: named });
          const through = throughLinks(model, caller);
          const kept = await removeLinks(tx, model.binding.links![links], id, named, through?.field === links ? through.changeable : undefined);
          if (kept) {
            const after = await findRecord(tx, model, caller, id).catch(() => null);
            return [{ model, action: 'updated', id, record: after ?? record, audience: audienceOf(model, before, await holdersOf(tx, model, id)) }];
          }
        }
        await model.binding.rules?.beforeDelete?.(ruleContext(tx, caller), id, record);
        await deleteRow(tx, model.storage, scopeOf(caller), id);
        const followOn = await model.binding.rules?.afterDelete?.(ruleContext(tx, caller), id, record);
        return [{ model, action: 'deleted', id, record: null, removed: record, audience: audienceOf(model, before) }, ...await settleFollowOn(tx, followOn)];
      });
      publishAll(caller.tenantId, changes);
      return { id };
    },
  };
}
export type ResourceService = ReturnType<typeof resourceService>;
