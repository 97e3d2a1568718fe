// Where each model lives in the database: its table, the link tables behind id-list fields,
// the fields whose ids must name the tenant's own rows, fixed column values, and the model's
// rules (server/resources/rules/). Fields map to the columns of the same (snake_case) name.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ModelName } from '../../src/schemas/models.ts';
import {
  boardComponents, boardGroups, boards, components, entities, entityGroups, entityTypes, groups, kpiGroups, kpis, logs,
  notifications, profiles, schedulers, shares, watchers,
} from '../db/schema.ts';
import type { ModelRules } from './rules/types.ts';
import { entityRules } from './rules/entityRules.ts';
import { kpiRules } from './rules/kpiRules.ts';
import { schedulerRules } from './rules/schedulerRules.ts';

/** An id-list field stored in a link table: (own id, other id) rows, other ids from `target`. */
export interface LinkBinding { table: PgTable; own: PgColumn; other: PgColumn; target: PgTable }

export interface ModelBinding {
  table: PgTable;
  links?: Record<string, LinkBinding>;
  /** Fields (top level, id or id list) whose ids must exist in the given table (under row-level security). */
  references?: Record<string, PgTable>;
  /** Object fields whose properties are columns of their own (entity.interface). */
  flattened?: string[];
  /** Read-only fields computed in SQL from the row (`table` is the model's table). */
  computed?: Record<string, (table: PgTable) => SQL>;
  /** Lists kept until the tenant's data changes: only for tables whose triggers announce every change (migration 0003). */
  cached?: boolean;
  /** Column values every row of this model has (boards of kind 'performance'). */
  fixed?: Record<string, unknown>;
  rules?: ModelRules;
}

export const MODEL_BINDINGS: Record<ModelName, ModelBinding> = {
  entity: {
    table: entities,
    links: { group_ids: { table: entityGroups, own: entityGroups.entityId, other: entityGroups.groupId, target: groups } },
    references: { entity_type_id: entityTypes, parent_id: entities },
    flattened: ['interface'],
    rules: entityRules,
  },
  kpi: {
    table: kpis,
    links: { group_ids: { table: kpiGroups, own: kpiGroups.kpiId, other: kpiGroups.groupId, target: groups } },
    computed: {
      group: () => sql`(SELECT json_build_object('id', g.id, 'tenant_id', g.tenant_id, 'name', g.name, 'attributes', g.attributes)
        FROM kpi_groups kg JOIN groups g ON g.id = kg.group_id WHERE kg.kpi_id = kpis.id ORDER BY g.id LIMIT 1)`,
    },
    rules: kpiRules,
  },
  watcher: { table: watchers, references: { entity_ids: entities, entity_type_ids: entityTypes }, cached: true },
  scheduler: { table: schedulers, references: { entity_ids: entities, entity_type_ids: entityTypes }, rules: schedulerRules },
  profile: { table: profiles },
  board: {
    table: boards,
    links: { group_ids: { table: boardGroups, own: boardGroups.boardId, other: boardGroups.groupId, target: groups } },
    fixed: { kind: 'performance' },
  },
  component: {
    table: components,
    links: { board_ids: { table: boardComponents, own: boardComponents.componentId, other: boardComponents.boardId, target: boards } },
  },
  share: { table: shares },
  notification: { table: notifications },
  log: { table: logs },
};
