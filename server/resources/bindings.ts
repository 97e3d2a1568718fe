// Where each model lives in the database: its table, the link tables behind id-list fields,
// the fields whose ids must name the tenant's own rows (server/resources/referenceCheck.ts),
// unique constraints a client can run into, fixed column values, and the model's rules
// (server/resources/rules/). Fields map to the columns of the same (snake_case) name.
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ModelName } from '../../src/schemas/models.ts';
import type { LOG_SOURCES } from '../../src/schemas/enums.ts';
import { boards, entities, entityTypes, groups, kpis, MODEL_TABLES, profiles, schedulers, users, watchers } from '../db/schema.ts';
import type { ModelLink, ModelStorage } from '../db/modelTables.ts';
import type { ApiError } from '../errors.ts';
import type { ModelRules } from './rules/types.ts';
import { accessTokenTaken, entityRules } from './rules/entityRules.ts';
import { kpiPresetRules, kpiPresetTaken } from './rules/kpiPresetRules.ts';
import { kpiRules } from './rules/kpiRules.ts';
import { logRules } from './rules/logRules.ts';
import { profileRules, profileTargetTaken } from './rules/profileRules.ts';
import { schedulerRules } from './rules/schedulerRules.ts';

/** An id-list field stored in a link table: (own id, other id) rows, other ids from `target`. */
export type LinkBinding = ModelLink;

/** Rows of one kind among a reference's target: `column` is true on them; another row is refused with `code`, `<field>: <id> is not <noun>`. */
export interface ReferenceKind { column: PgColumn; code: string; noun: string }

/**
 * Where a reference's ids must be found among the tenant's rows: a table (by `id`), or a column
 * (a board's `resource_uuid`), optionally only rows of a kind; or a function choosing it from the
 * object holding the id (a notification source's `model_id` names a row of its `model_name`),
 * undefined when no row can match.
 */
export type ReferenceTarget = PgTable | { column: PgColumn; kind?: ReferenceKind };
export type Reference = ReferenceTarget | ((holder: Record<string, unknown>) => ReferenceTarget | undefined);

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
  rules?: ModelRules;
}

/** The table of each log source whose records a notification rule may name (`system` has none). */
const LOG_SOURCE_TABLES: Partial<Record<(typeof LOG_SOURCES)[number], PgTable>> = { watcher: watchers, scheduler: schedulers, entity: entities, profile: profiles };

const gateway: ReferenceTarget = { column: entities.id, kind: { column: entities.isGateway, code: 'NOT_A_GATEWAY', noun: 'a gateway' } };

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
  board: {
    ...MODEL_TABLES.board,
    fixed: { kind: 'performance' },
  },
  component: {
    ...MODEL_TABLES.component,
    references: { 'definition.kpi_id': kpis },
  },
  share: { ...MODEL_TABLES.share, references: { resource: { column: boards.resourceUuid }, requester: users } },
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
};
