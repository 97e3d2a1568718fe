// Where each model lives in the database: its table, the link tables behind id-list fields,
// the fields whose ids must name the tenant's own rows (server/resources/referenceCheck.ts),
// unique constraints a client can run into, fixed column values, who each record exists for
// (`grants`), and the model's rules (server/resources/rules/). Fields map to the columns of the
// same (snake_case) name.
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ModelName } from '../../src/schemas/models.ts';
import type { LOG_SOURCES } from '../../src/schemas/enums.ts';
import { boardFirstGroup, boardGrants, boardShareOfReader, shareGrants } from '../db/boardGrantQueries.ts';
import { apiUsers, entities, entityTypes, groups, kpis, MODEL_TABLES, profiles, schedulers, shares, users, watchers } from '../db/schema.ts';
import type { ModelLink, ModelStorage } from '../db/modelTables.ts';
import type { ApiError } from '../errors.ts';
import { boardRules } from './rules/boardRules.ts';
import { componentRules } from './rules/componentRules.ts';
import { shareRules } from './rules/shareRules.ts';
import type { ModelRules } from './rules/types.ts';
import { accessTokenTaken, entityRules } from './rules/entityRules.ts';
import { kpiPresetRules, kpiPresetTaken } from './rules/kpiPresetRules.ts';
import { kpiRules } from './rules/kpiRules.ts';
import { logRules } from './rules/logRules.ts';
import { maintenanceWindowRules } from './rules/maintenanceWindowRules.ts';
import { profileRules, profileTargetTaken } from './rules/profileRules.ts';
import { schedulerRules } from './rules/schedulerRules.ts';

/** An id-list field stored in a link table: (own id, other id) rows, other ids from `target`. */
export type LinkBinding = ModelLink;

/** Rows of one kind among a reference's target: `column` is true on them; another row is refused with `code`, `<field>: <id> is not <noun>`. */
export interface ReferenceKind { column: PgColumn; code: string; noun: string }

/**
 * Records of a granted model (a board) a reference may name: by `id` or another column (a share's
 * `resource` is a board's `resource_uuid`), those the caller holds at least `needs` on. One it
 * holds no grant on is answered as an id that exists nowhere; one it holds too little on, 403.
 */
export interface GrantedReference { model: string; column?: string; needs: Grant }

/**
 * Where a reference's ids must be found among the tenant's rows: a table (by `id`), or a column
 * (a board's `resource_uuid`), optionally only rows of a kind; records of a granted model; any of
 * several (a share's requester: a user or an API user); or a function choosing it from the object
 * holding the id (a notification source's `model_id` names a row of its `model_name`), undefined
 * when no row can match.
 */
export type ReferenceTarget = PgTable | { column: PgColumn; kind?: ReferenceKind } | GrantedReference;
export type Reference = ReferenceTarget | readonly ReferenceTarget[] | ((holder: Record<string, unknown>) => ReferenceTarget | undefined);

/** What a user may do with a record of a granted model (SPEC §6: boards are viewed or edited, plus owned). */
export type Grant = 'view' | 'edit' | 'owner';
export const GRANT_RANKS: Record<Grant, number> = { view: 1, edit: 2, owner: 3 };

/**
 * Records that exist only for some users of the tenant: a board for its owner and those it is
 * shared with. Everyone else gets what an id that exists nowhere gets (404, not in lists); a
 * user who sees a record but holds too little on it gets 403 naming what it needs. The model's
 * access rule (modules, permission) still applies first.
 */
export interface RecordGrants {
  /** The user's grant on the row read (SQL: 1 view, 2 edit, 3 owner, NULL none) — server/db/boardGrantQueries.ts. */
  of?: (user: SQL) => SQL;
  /** The users holding a grant on the row `id` (SQL selecting `user_id`): its changes reach them only. */
  holders?: (id: SQL) => SQL;
  /**
   * Or the grant comes through an id-list field from the linked records of another granted model:
   * the best the user holds on them (a component is seen with any of its boards, changed by an
   * editor of one). Its answers list only the linked records the reader sees; a write names only
   * records the caller may edit and replaces only those links; a create names at least one.
   */
  through?: { field: string; model: string };
  /** The column holding the creator, who owns the record. */
  owner?: string;
  /** The least grant each action needs (reading needs any); `list`: the rows a list answers. */
  needs: Partial<Record<'list' | 'update' | 'delete', Grant>>;
  /** What is granted, as refusals name it ("Only the board's owner may do this."). */
  noun: string;
}

export interface ModelBinding {
  table: PgTable;
  links?: Record<string, LinkBinding>;
  /**
   * Fields holding an id or a list of ids that must be the tenant's own rows, by path: `parent_id`,
   * `interface.fk_gateway_id` inside an object, `query.entity_ids` in every item of the `query` list.
   */
  references?: Record<string, Reference>;
  /** Unique constraints (by name) a write may violate, and the answer when it does: never a 500. */
  conflicts?: Record<string, () => ApiError>;
  /** From the model's storage (server/db/schema.ts): object fields kept as columns, fields computed in SQL. */
  flattened?: ModelStorage['flattened'];
  computed?: ModelStorage['computed'];
  /** Lists kept until the tenant's data changes: only for tables whose triggers announce every change (migration 0003). */
  cached?: boolean;
  /** Column values every row of this model has (boards of kind 'performance'). */
  fixed?: Record<string, unknown>;
  /** Who each record exists for, and what each of them may do with it. */
  grants?: RecordGrants;
  /** A unique key (its columns) a create may meet: it then changes the row holding it (one share per board and requester). */
  upsertOn?: PgColumn[];
  /** Read-only fields no statement reads: the service's completion of the model's answers fills them (a public-API KPI component's data). */
  completed?: readonly string[];
  rules?: ModelRules;
}

/** The table of each log source whose records a notification rule may name (`system` has none). */
const LOG_SOURCE_TABLES: Partial<Record<(typeof LOG_SOURCES)[number], PgTable>> = { watcher: watchers, scheduler: schedulers, entity: entities, profile: profiles };

const gateway: ReferenceTarget = { column: entities.id, kind: { column: entities.isGateway, code: 'NOT_A_GATEWAY', noun: 'a gateway' } };

/** A board: its owner may do everything, an editor change it (not delete or share it), a viewer read it. */
const boardGranted: RecordGrants = { ...boardGrants, owner: 'owner_id', needs: { update: 'edit', delete: 'owner' }, noun: 'board' };
/** A component through its boards (of the board model `model`): an editor of one of them changes or removes it. */
const onBoards = (model: string): RecordGrants => ({ through: { field: 'board_ids', model }, needs: { update: 'edit', delete: 'edit' }, noun: 'board' });
/** A share of a board of `kind`: its owner lists and removes it; its requester sees it and may leave it. */
const shareGranted = (kind: string): RecordGrants => ({ ...shareGrants(kind), owner: 'owner', needs: { list: 'owner', delete: 'view' }, noun: 'share' });
/** The board a share names (by its resource_uuid): only its owner shares it. */
const sharedBoard = (model: string): GrantedReference => ({ model, column: 'resource_uuid', needs: 'owner' });

export const MODEL_BINDINGS: Record<ModelName, ModelBinding> = {
  entity: {
    ...MODEL_TABLES.entity,
    references: { entity_type_id: entityTypes, parent_id: entities, 'interface.fk_gateway_id': gateway },
    conflicts: { entities_access_token_unique: accessTokenTaken },
    rules: entityRules,
  },
  kpi: {
    ...MODEL_TABLES.kpi,
    references: { 'query.entity_ids': entities, 'query.entity_type_ids': entityTypes },
    rules: kpiRules,
  },
  watcher: { ...MODEL_TABLES.watcher, references: { entity_ids: entities, entity_type_ids: entityTypes }, cached: true },
  scheduler: { ...MODEL_TABLES.scheduler, references: { entity_ids: entities, entity_type_ids: entityTypes }, rules: schedulerRules },
  profile: {
    ...MODEL_TABLES.profile,
    references: { entity_ids: entities, group_ids: groups },
    conflicts: { profile_entities_entity_unique: () => profileTargetTaken(), profile_groups_group_unique: () => profileTargetTaken() },
    rules: profileRules,
  },
  board: { ...MODEL_TABLES.board, fixed: { kind: 'performance' }, grants: boardGranted, rules: boardRules },
  public_api_board: {
    ...MODEL_TABLES.board,
    fixed: { kind: 'public_api' },
    grants: boardGranted,
    computed: { ...MODEL_TABLES.board.computed, share: (_table, reader) => boardShareOfReader(reader), group: () => boardFirstGroup() },
    rules: boardRules,
  },
  component: { ...MODEL_TABLES.component, references: { 'definition.kpi_id': kpis }, grants: onBoards('board'), rules: componentRules },
  public_api_component: {
    ...MODEL_TABLES.component, references: { 'definition.kpi_id': kpis }, grants: onBoards('public_api_board'), completed: ['query', 'data', 'data_error'], rules: componentRules,
  },
  share: {
    ...MODEL_TABLES.share,
    references: { resource: sharedBoard('board'), requester: users },
    grants: shareGranted('performance'),
    upsertOn: [shares.resource, shares.requester],
    rules: shareRules('board'),
  },
  // an API user of the tenant may be given a public-API board as well as a user
  public_api_share: {
    ...MODEL_TABLES.share,
    references: { resource: sharedBoard('public_api_board'), requester: [users, apiUsers] },
    grants: shareGranted('public_api'),
    upsertOn: [shares.resource, shares.requester],
    rules: shareRules('public_api_board'),
  },
  notification: {
    ...MODEL_TABLES.notification,
    references: { 'log_filter.sources.model_id': (source) => LOG_SOURCE_TABLES[source.model_name as keyof typeof LOG_SOURCE_TABLES] },
  },
  log: { ...MODEL_TABLES.log, rules: logRules },
  kpi_preset: {
    ...MODEL_TABLES.kpi_preset,
    references: { 'items.kpi_id': kpis },
    conflicts: { kpi_presets_user_module_unique: kpiPresetTaken },
    rules: kpiPresetRules,
  },
  maintenance_window: { ...MODEL_TABLES.maintenance_window, references: { region_id: entities, group_id: groups }, rules: maintenanceWindowRules },
};
