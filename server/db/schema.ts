// The one pg-core schema of Terrasight, shared by PGlite and PostgreSQL; drizzle-kit reads it
// (`npm run db:generate`). The models' tables are derived from their JSON Schemas by
// `modelTables` (modelTables.ts); the others are written here. Every tenant-owned table has
// `tenant_id` and the tenant-isolation policy. The partitioned `telemetry` table is created by
// the hand-written migration 0001 (drizzle-kit cannot declare partitions) and is described for
// queries in `telemetryTable.ts`, outside the schema drizzle-kit reads.
import { sql } from 'drizzle-orm';
import { isArea } from './geometry.ts';
import { telemetryValueColumns } from './telemetryTable.ts';
import {
  bigint, boolean, check, customType, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';
import { escapeLiteral } from 'pg';
import { boardSchema } from '../../src/schemas/board.ts';
import { BOARD_KIND_NAMES, NOTIFICATION_CHANNELS } from '../../src/schemas/enums.ts';
import { componentSchema } from '../../src/schemas/component.ts';
import { entitySchema } from '../../src/schemas/entity.ts';
import { kpiSchema } from '../../src/schemas/kpi.ts';
import { kpiPresetSchema } from '../../src/schemas/kpiPreset.ts';
import { logSchema } from '../../src/schemas/log.ts';
import { maintenanceWindowSchema } from '../../src/schemas/maintenanceWindow.ts';
import { notificationSchema } from '../../src/schemas/notification.ts';
import { profileSchema } from '../../src/schemas/profile.ts';
import { schedulerSchema } from '../../src/schemas/scheduler.ts';
import { shareSchema } from '../../src/schemas/share.ts';
import { watcherSchema } from '../../src/schemas/watcher.ts';
import { boardIsOwner, boardScopes } from './boardGrantQueries.ts';
import { coveredEntityIds, inForce } from './maintenanceQueries.ts';
import { modelTables, tenantColumn, tenantIsolation } from './modelTables.ts';

const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();
const tenantId = () => tenantColumn(() => tenants.id);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const json = (name: string) => jsonb(name).notNull().default(sql`'{}'::jsonb`);
const textList = (name: string) => text(name).array().notNull().default(sql`'{}'::text[]`);

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  variant: text('variant').notNull().default('facility'),
  entityTypeId: integer('entity_type_id'),
  attributes: json('attributes'),
  createdAt: createdAt(),
}, () => [tenantIsolation('id')]);

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: tenantId(),
  username: text('username').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash').notNull(),
  modules: textList('modules'),
  modulePermissions: textList('module_permissions'),
  maintenanceModes: textList('maintenance_modes'),
  languages: textList('languages'),
  lang: text('lang'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex('users_email_unique').on(sql`lower(${t.email})`), index('users_tenant_idx').on(t.tenantId), tenantIsolation()]);

export const entityTypeGroups = pgTable('entity_type_groups', {
  id: id(),
  tenantId: tenantId(),
  name: text('name').notNull(),
  attributes: json('attributes'),
}, (t) => [index('entity_type_groups_tenant_idx').on(t.tenantId), tenantIsolation()]);

export const entityTypes = pgTable('entity_types', {
  id: id(),
  tenantId: tenantId(),
  entityTypeGroupId: integer('entity_type_group_id').references(() => entityTypeGroups.id, { onDelete: 'set null' }),
  category: text('category').notNull(),
  name: text('name').notNull(),
  definition: json('definition'),
  attributesOrder: jsonb('attributes_order').notNull().default(sql`'[]'::jsonb`),
  attributes: json('attributes'),
}, (t) => [index('entity_types_tenant_idx').on(t.tenantId), tenantIsolation()]);

const entityModel = modelTables(entitySchema, {
  table: 'entities',
  tenants: () => tenants.id,
  flattened: ['interface'],
  links: { group_ids: { table: 'entity_groups', target: () => groups } },
  refine: {
    entity_type_id: (column) => column.references(() => entityTypes.id),
    /** The device's credential (MQTT user name, HTTP path): 128 random bits, rotatable. */
    access_token: (column) => column.default(sql`replace(gen_random_uuid()::text, '-', '')`),
  },
  serverColumns: {
    thingsboardUuid: uuid('thingsboard_uuid'),
    createdAt: createdAt(),
    // ThingsBoard's attribute scopes: what the device reported (also merged into `attributes`, which
    // the platform shows), and what the platform sets for the device and pushes to it
    clientAttributes: json('client_attributes'),
    sharedAttributes: json('shared_attributes'),
  },
  indexes: (t) => [
    index('entities_parent_idx').on(t.parentId),
    // an entity type's entities in id order among a million (KPI items, watchers, the studio's list by type)
    index('entities_type_idx').on(t.entityTypeId, t.id),
    index('entities_tree_path_idx').on(t.treePath),
    uniqueIndex('entities_access_token_unique').on(t.accessToken),
    index('entities_gateway_child_idx').on(t.fkGatewayId, t.thingsboardName),
    // the map's areas (regions, zones, lines) among what may be a million point devices
    index('entities_areas_idx').on(t.id).where(isArea(sql`geom`)),
    // the search by name among a million: the trigrams of the names in every language (migration 0021, entityNamedIds)
    index('entities_name_search_idx').using('gin', sql`entity_name_text(name) gin_trgm_ops`),
  ],
});
export const entities = entityModel.table;

export const groups = pgTable('groups', {
  id: id(),
  tenantId: tenantId(),
  parentId: integer('parent_id'),
  name: text('name').notNull(),
  treePath: text('tree_path').notNull().default(''),
  attributes: json('attributes'),
}, (t) => [index('groups_tenant_idx').on(t.tenantId), tenantIsolation()]);

export const entityGroups = entityModel.links.group_ids.table;

/** The columns of every roll-up: a bucket's count, sum, min, max and last value of a device's key. */
const rollupColumns = () => ({
  tenantId: tenantId(),
  entityId: integer('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  bucket: timestamp('bucket', { withTimezone: true }).notNull(),
  count: bigint('count', { mode: 'number' }).notNull(),
  sum: doublePrecision('sum'),
  min: doublePrecision('min'),
  max: doublePrecision('max'),
  lastValue: doublePrecision('last_value'),
  lastTs: timestamp('last_ts', { withTimezone: true }),
});
const rollup = (name: string) => pgTable(name, rollupColumns(), (t) => [primaryKey({ columns: [t.entityId, t.key, t.bucket] }), tenantIsolation()]);
export const telemetryHourly = rollup('telemetry_hourly');
export const telemetryDaily = rollup('telemetry_daily');
/** 15-minute buckets: the grain of time zones whose offset is not whole hours (+05:30, +05:45). */
export const telemetryQuarterHourly = rollup('telemetry_quarter_hourly');

/**
 * Local days of the time zones in TELEMETRY_DAY_ZONES (`telemetry_day_zones`), one roll-up row per
 * zone, device, key and local day: daily and monthly buckets in those zones read one row a day
 * instead of 24 hourly rows (server/telemetry/dayZones.ts checks the list, server/db/dayZoneQueries.ts builds a new zone).
 */
export const telemetryDailyZoned = pgTable('telemetry_daily_zoned', {
  ...rollupColumns(),
  zone: text('zone').notNull(),
}, (t) => [primaryKey({ columns: [t.entityId, t.key, t.zone, t.bucket] }), tenantIsolation()]);

/** The zones folded into `telemetry_daily_zoned` (a zone is listed once its rows are built). */
export const telemetryDayZones = pgTable('telemetry_day_zones', {
  zone: text('zone').primaryKey(),
});

/**
 * How far the roll-ups hold the raw points (server/engines/rollups/rollupFolder.ts): one row. Every
 * raw point before `folded_until` is in the roll-ups, and those of the quarter hour starting there
 * for the entities up to `entity_done`; the writer folds a point arriving there at once, the folder
 * folds the rest when its quarter hour has closed.
 */
export const telemetryFoldState = pgTable('telemetry_fold_state', {
  id: boolean('id').primaryKey().default(true),
  foldedUntil: timestamp('folded_until', { withTimezone: true }).notNull(),
  entityDone: integer('entity_done').notNull().default(0),
}, () => [check('telemetry_fold_state_one_row', sql`id`)]);

/** Each device's latest value per key: what maps, lists and the entity detail show. */
export const telemetryLatest = pgTable('telemetry_latest', {
  tenantId: tenantId(),
  entityId: integer('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  ts: timestamp('ts', { withTimezone: true }).notNull(),
  ...telemetryValueColumns(),
}, (t) => [primaryKey({ columns: [t.entityId, t.key] }), index('telemetry_latest_tenant_idx').on(t.tenantId), tenantIsolation()]);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** A region's floor-plan image (SPEC §5: one file); the region's attributes.overlay places it. */
export const entityImages = pgTable('entity_images', {
  entityId: integer('entity_id').primaryKey().references(() => entities.id, { onDelete: 'cascade' }),
  tenantId: tenantId(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  updatedAt: updatedAt(),
}, (t) => [index('entity_images_tenant_idx').on(t.tenantId), tenantIsolation()]);

const kpiModel = modelTables(kpiSchema, {
  table: 'kpis',
  tenants: () => tenants.id,
  links: { group_ids: { target: () => groups } },
  computed: {
    /** The KPI's first group, as the KPI list shows it. */
    group: () => sql`(SELECT json_build_object('id', g.id, 'tenant_id', g.tenant_id, 'name', g.name, 'attributes', g.attributes)
      FROM kpi_groups kg JOIN groups g ON g.id = kg.group_id WHERE kg.kpi_id = kpis.id ORDER BY g.id LIMIT 1)`,
  },
  serverColumns: { createdAt: createdAt() },
});
export const kpis = kpiModel.table;

export const kpiGroups = kpiModel.links.group_ids.table;

const kpiPresetModel = modelTables(kpiPresetSchema, {
  table: 'kpi_presets',
  tenants: () => tenants.id,
  refine: { user_uuid: (column) => column.references(() => users.id, { onDelete: 'cascade' }) },
  /** One preset per user and dashboard: a second one is the client's conflict (bindings.ts). */
  indexes: (t) => [uniqueIndex('kpi_presets_user_module_unique').on(t.userUuid, t.module)],
});
export const kpiPresets = kpiPresetModel.table;

const watcherModel = modelTables(watcherSchema, {
  table: 'watchers',
  tenants: () => tenants.id,
  // when the watcher engine evaluates it next (server/engines/watchers); an active watcher at once
  serverColumns: { createdAt: createdAt(), nextEvaluationAt: timestamp('next_evaluation_at', { withTimezone: true }).notNull().defaultNow() },
  indexes: (t) => [index('watchers_next_evaluation_idx').on(t.nextEvaluationAt)],
});
export const watchers = watcherModel.table;

/** One watcher on one entity: the state the watcher engine resumes from (watchState.ts). */
export const watcherStates = pgTable('watcher_states', {
  tenantId: tenantId(),
  watcherId: integer('watcher_id').notNull().references(() => watchers.id, { onDelete: 'cascade' }),
  entityId: integer('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
  state: text('state').notNull(),
  since: timestamp('since', { withTimezone: true, mode: 'string' }).notNull(),
  /** The value of the evaluation that made the state (jsonb: a number, text, boolean or null). */
  value: jsonb('value'),
  /** The problem began under notify-off maintenance: its alert was not sent, nor is its recovery. */
  muted: boolean('muted').notNull().default(false),
}, (t) => [primaryKey({ columns: [t.watcherId, t.entityId] }), index('watcher_states_tenant_idx').on(t.tenantId), tenantIsolation()]);

const schedulerModel = modelTables(schedulerSchema, {
  table: 'schedulers',
  tenants: () => tenants.id,
  // an instance running the scheduler's due occurrence holds it until then; how often that
  // occurrence's run has failed so far (server/engines/schedulers)
  serverColumns: {
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lastFailure: text('last_failure'),
  },
  indexes: (t) => [index('schedulers_next_run_idx').on(t.nextRunAt)],
});
export const schedulers = schedulerModel.table;

const maintenanceWindowModel = modelTables(maintenanceWindowSchema, {
  table: 'maintenance_windows',
  tenants: () => tenants.id,
  refine: {
    region_id: (column) => column.references(() => entities.id, { onDelete: 'cascade' }),
    group_id: (column) => column.references(() => groups.id, { onDelete: 'cascade' }),
  },
  // in force while now lies in its current occurrence; the devices it leaves out meanwhile (server/db/maintenanceQueries.ts)
  computed: {
    active: () => sql`coalesce(${inForce(sql`maintenance_windows`)}, false)`,
    covered_entity_ids: () => coveredEntityIds(sql`maintenance_windows`),
  },
  // the occurrence whose start and end the engine has logged (server/engines/maintenance)
  serverColumns: { startLogged: boolean('start_logged').notNull().default(false) },
  indexes: (t) => [index('maintenance_windows_current_end_idx').on(t.currentEnd)],
});
export const maintenanceWindows = maintenanceWindowModel.table;

/** One occurrence of a scheduler, run once: the key (scheduler, occurrence) is unique. */
export const schedulerRuns = pgTable('scheduler_runs', {
  tenantId: tenantId(),
  schedulerId: integer('scheduler_id').notNull().references(() => schedulers.id, { onDelete: 'cascade' }),
  occurrenceAt: timestamp('occurrence_at', { withTimezone: true }).notNull(),
  /** ok, nok, or skipped (missed by more than a day). */
  result: text('result').notNull(),
  message: text('message').notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.schedulerId, t.occurrenceAt] }), index('scheduler_runs_tenant_idx').on(t.tenantId), tenantIsolation()]);

const profileModel = modelTables(profileSchema, {
  table: 'profiles',
  tenants: () => tenants.id,
  // a lamp, zone, region or group follows one profile at a time (bindings.ts answers the conflict)
  links: { entity_ids: { table: 'profile_entities', target: () => entities, uniqueOther: true }, group_ids: { target: () => groups, uniqueOther: true } },
});
export const profiles = profileModel.table;
export const profileEntities = profileModel.links.entity_ids.table;
export const profileGroups = profileModel.links.group_ids.table;

/**
 * What the lighting engine decided for each lamp that follows a profile (server/engines/lighting):
 * the level it must have now and why, the light sensor's last state, and an operator's override
 * until it ends.
 */
export const lampStates = pgTable('lamp_states', {
  entityId: integer('entity_id').primaryKey().references(() => entities.id, { onDelete: 'cascade' }),
  tenantId: tenantId(),
  profileId: integer('profile_id').references(() => profiles.id, { onDelete: 'set null' }),
  /** The level (0-100) the lamp must have, and what decided it (profile rule, override). */
  level: integer('level').notNull(),
  reason: text('reason').notNull(),
  since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
  sensorOn: boolean('sensor_on'),
  overrideLevel: integer('override_level'),
  overrideUntil: timestamp('override_until', { withTimezone: true }),
  overrideBy: uuid('override_by'),
}, (t) => [index('lamp_states_tenant_idx').on(t.tenantId), tenantIsolation()]);

/**
 * Commands to devices (server-side RPC): queued until the device can be reached, sent, delivered
 * (the device has it), then ok or failed by its answer; expired when its time to live passed or a
 * newer command of the same method replaced it before it was delivered.
 */
export const deviceCommands = pgTable('device_commands', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  tenantId: tenantId(),
  entityId: integer('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
  method: text('method').notNull(),
  params: jsonb('params').notNull().default(sql`'{}'::jsonb`),
  /** queued, sent, delivered, ok, failed, expired */
  status: text('status').notNull().default('queued'),
  /** Who asked: lighting (a profile), override (an operator), user. */
  source: text('source').notNull(),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  answeredAt: timestamp('answered_at', { withTimezone: true }),
  response: jsonb('response'),
}, (t) => [
  index('device_commands_entity_idx').on(t.entityId, t.id),
  index('device_commands_pending_idx').on(t.expiresAt).where(sql`status IN ('queued', 'sent', 'delivered')`),
  index('device_commands_tenant_idx').on(t.tenantId, t.createdAt),
  tenantIsolation(),
]);

/** When each tenant's lamps are next looked at by the lighting engine, and by which instance for now. */
export const lightingTicks = pgTable('lighting_ticks', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id, { onDelete: 'cascade' }),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
}, () => [tenantIsolation()]);

const boardModel = modelTables(boardSchema, {
  table: 'boards',
  tenants: () => tenants.id,
  links: { group_ids: { target: () => groups } },
  // what the reader may do with the board (boardGrantQueries.ts)
  computed: { is_owner: (_table, reader) => boardIsOwner(reader), scopes: (_table, reader) => boardScopes(reader) },
  serverColumns: {
    /** 'performance' or 'public_api': the doors that serve it (bindings.ts) */
    kind: text('kind').notNull().default('performance'),
    /** the key a share names the board by */
    resourceUuid: uuid('resource_uuid').notNull().defaultRandom(),
    /** who created it: it exists for them and for the users they share it with */
    ownerId: uuid('owner_id'),
  },
  indexes: (t) => [
    index('boards_owner_idx').on(t.ownerId),
    index('boards_resource_uuid_idx').on(t.resourceUuid),
    check('boards_kind_check', sql.raw(`kind IN (${BOARD_KIND_NAMES.map((kind) => escapeLiteral(kind)).join(', ')})`)),
  ],
});
export const boards = boardModel.table;

export const boardGroups = boardModel.links.group_ids.table;

const componentModel = modelTables(componentSchema, {
  table: 'components',
  tenants: () => tenants.id,
  links: { board_ids: { table: 'board_components', target: () => boards } },
  serverColumns: {
    /** who last set definition.url (componentRules.ts): a board file it names is shown by that user's right to it (boardMediaQueries.ts) */
    urlSetBy: uuid('url_set_by'),
  },
});
export const components = componentModel.table;

export const boardComponents = componentModel.links.board_ids.table;

/** Files of boards' image and video components (src/schemas/boardMedia.ts), read at /board-media/{id}. */
export const boardMedia = pgTable('board_media', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: tenantId(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdBy: uuid('created_by'),
  createdAt: createdAt(),
}, (t) => [index('board_media_tenant_idx').on(t.tenantId), tenantIsolation()]);

const shareModel = modelTables(shareSchema, {
  table: 'shares',
  tenants: () => tenants.id,
  serverColumns: { createdAt: createdAt() },
  // one share per board and requester: sharing again changes it (bindings.ts `upsertOn`)
  indexes: (t) => [uniqueIndex('shares_resource_requester_unique').on(t.resource, t.requester), index('shares_requester_idx').on(t.requester)],
});
export const shares = shareModel.table;

const notificationModel = modelTables(notificationSchema, {
  table: 'notifications',
  tenants: () => tenants.id,
  refine: { user_uuid: (column) => column.references(() => users.id, { onDelete: 'cascade' }) },
});
export const notifications = notificationModel.table;

const logModel = modelTables(logSchema, {
  table: 'logs',
  tenants: () => tenants.id,
  refine: {
    id: () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    status: (column) => column.default('new'),
  },
  // an engine's event (a watcher's transition, a scheduler's run) is logged at most once: its key is unique
  serverColumns: { eventKey: text('event_key') },
  computed: {
    /** The entity the log is about: its id and multilingual name. */
    entity: () => sql`(SELECT json_build_object('id', e.id, 'name', e.name) FROM entities e WHERE e.id = logs.entity_id)`,
  },
  indexes: (t) => [uniqueIndex('logs_event_key_idx').on(t.tenantId, t.eventKey)],
});
export const logs = logModel.table;

/**
 * The outbox of notifications (server/engines/notifications/): one row per log, user and channel,
 * written in the transaction that writes the log, so a delivery is queued exactly when its log is
 * stored, and never twice (the unique index). The sender claims due rows across tenants, sends,
 * and marks them sent, retries later or gives up (`failed`).
 */
export const notificationDeliveries = pgTable('notification_deliveries', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  tenantId: tenantId(),
  logId: bigint('log_id', { mode: 'number' }).notNull().references(() => logs.id, { onDelete: 'cascade' }),
  userUuid: uuid('user_uuid').notNull().references(() => users.id, { onDelete: 'cascade' }),
  channel: text('channel').notNull(),
  status: text('status').notNull().default('pending'),
  /** Sending attempts begun (counted when a sender claims the row). */
  attempts: integer('attempts').notNull().default(0),
  /** When the row is due; a sender moves it forward while it sends (its lease), then to the next retry. */
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  /** Why the last attempt failed, in a few words (never a server's reply or a stack). */
  lastError: text('last_error'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('notification_deliveries_log_user_channel_unique').on(t.logId, t.userUuid, t.channel),
  index('notification_deliveries_tenant_idx').on(t.tenantId),
  index('notification_deliveries_user_idx').on(t.userUuid),
  index('notification_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  check('notification_deliveries_channel_check', sql.raw(`channel IN (${NOTIFICATION_CHANNELS.map((channel) => escapeLiteral(channel)).join(', ')})`)),
  check('notification_deliveries_status_check', sql`status IN ('pending', 'sent', 'failed')`),
  tenantIsolation(),
]);

export const apiUsers = pgTable('api_users', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: tenantId(),
  username: text('username').notNull(),
  passwordHash: text('password_hash').notNull(),
  permissions: textList('permissions'),
  createdAt: createdAt(),
}, (t) => [
  index('api_users_tenant_idx').on(t.tenantId),
  // an API user signs in with its tenant and username (src/schemas/apiUser.ts): unique in the tenant, in any letter case
  uniqueIndex('api_users_tenant_username_unique').on(t.tenantId, sql`lower(${t.username})`),
  tenantIsolation(),
]);

/**
 * The bearer tokens of API users (`tsa_…`, server/auth/apiTokens.ts), kept only as their SHA-256
 * hash; `prefix` is the token's start, shown to tell tokens apart. A token is live until it expires
 * or is revoked (the API user deleted, its password changed, the token signed out).
 */
export const apiTokens = pgTable('api_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: tenantId(),
  apiUserId: uuid('api_user_id').notNull().references(() => apiUsers.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  prefix: text('prefix').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('api_tokens_token_hash_unique').on(t.tokenHash),
  index('api_tokens_api_user_idx').on(t.apiUserId),
  index('api_tokens_tenant_idx').on(t.tenantId),
  tenantIsolation(),
]);

/** A sign-in; its refresh tokens rotate, and re-use of a dead one revokes the whole session. */
export const authSessions = pgTable('auth_sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: tenantId(),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [index('auth_sessions_user_idx').on(t.userId), tenantIsolation()]);

export const refreshTokens = pgTable('refresh_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  tenantId: tenantId(),
  sessionId: uuid('session_id').notNull().references(() => authSessions.id, { onDelete: 'cascade' }),
  usedAt: timestamp('used_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
}, (t) => [index('refresh_tokens_session_idx').on(t.sessionId), tenantIsolation()]);

/**
 * Failed sign-in counters (server/auth/loginThrottle.ts), shared by every instance. Keys:
 * `account:<e-mail>`, `address:<ip>`, `pair:<e-mail>|<ip>`; `known:<e-mail>|<ip>` marks an
 * address the account signed in from (its `last_at` is that success). Not tenant data: only
 * system transactions touch it.
 */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
}, (t) => [index('login_throttle_last_at_idx').on(t.lastAt)]);

/**
 * Live events an instance sends the others (server/live/clusterBus.ts): one row per batch, named by
 * a notification, kept a few minutes so that an instance whose listening connection was lost reads
 * what it missed. Not tenant data: only system transactions touch it.
 */
export const liveEventBatches = pgTable('live_event_batches', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  origin: uuid('origin').notNull(),
  events: jsonb('events').notNull(),
  createdAt: createdAt(),
}, (t) => [index('live_event_batches_created_at_idx').on(t.createdAt)]);

/** The running instances, each seen every few seconds (server/engines/instances): one not seen for long is dead. Not tenant data. */
export const serverInstances = pgTable('server_instances', {
  id: uuid('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Open device connections per instance: a device is `active` while it has one on any instance. */
export const deviceConnections = pgTable('device_connections', {
  entityId: integer('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
  instanceId: uuid('instance_id').notNull(),
  tenantId: tenantId(),
  connections: integer('connections').notNull(),
}, (t) => [primaryKey({ columns: [t.entityId, t.instanceId] }), index('device_connections_instance_idx').on(t.instanceId), tenantIsolation()]);

/** Each model's table and link tables, derived from its schema (server/resources/bindings.ts binds them). */
export const MODEL_TABLES = {
  entity: entityModel, kpi: kpiModel, watcher: watcherModel, scheduler: schedulerModel, profile: profileModel,
  board: boardModel, component: componentModel, share: shareModel, notification: notificationModel, log: logModel,
  kpi_preset: kpiPresetModel, maintenance_window: maintenanceWindowModel,
};
