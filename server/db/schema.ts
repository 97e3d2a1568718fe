// The one pg-core schema of Terrasight, shared by PGlite and PostgreSQL.
// Every tenant-owned table has `tenant_id`; row-level security on it is added by the
// hand-written migration `0001_row_level_security.sql`. The partitioned `telemetry`
// table is created there too (drizzle-kit cannot declare partitions) and is described
// for queries in `telemetryTable.ts`, outside the schema drizzle-kit reads.
import { sql } from 'drizzle-orm';
import { telemetryValueColumns } from './telemetryTable.ts';
import {
  bigint, boolean, customType, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';

const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();
const tenantId = () => uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const json = (name: string) => jsonb(name).notNull().default(sql`'{}'::jsonb`);
const textList = (name: string) => text(name).array().notNull().default(sql`'{}'::text[]`);
const intList = (name: string) => integer(name).array().notNull().default(sql`'{}'::integer[]`);

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  variant: text('variant').notNull().default('facility'),
  entityTypeId: integer('entity_type_id'),
  attributes: json('attributes'),
  createdAt: createdAt(),
});

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
}, (t) => [uniqueIndex('users_email_unique').on(sql`lower(${t.email})`), index('users_tenant_idx').on(t.tenantId)]);

export const entityTypeGroups = pgTable('entity_type_groups', {
  id: id(),
  tenantId: tenantId(),
  name: text('name').notNull(),
  attributes: json('attributes'),
}, (t) => [index('entity_type_groups_tenant_idx').on(t.tenantId)]);

export const entityTypes = pgTable('entity_types', {
  id: id(),
  tenantId: tenantId(),
  entityTypeGroupId: integer('entity_type_group_id').references(() => entityTypeGroups.id, { onDelete: 'set null' }),
  category: text('category').notNull(),
  name: text('name').notNull(),
  definition: json('definition'),
  attributesOrder: jsonb('attributes_order').notNull().default(sql`'[]'::jsonb`),
  attributes: json('attributes'),
}, (t) => [index('entity_types_tenant_idx').on(t.tenantId)]);

export const entities = pgTable('entities', {
  id: id(),
  tenantId: tenantId(),
  entityTypeId: integer('entity_type_id').notNull().references(() => entityTypes.id),
  parentId: integer('parent_id'),
  name: json('name'),
  attributes: json('attributes'),
  geom: jsonb('geom'),
  level: integer('level').notNull().default(0),
  treePath: text('tree_path').notNull().default(''),
  thingsboardUuid: uuid('thingsboard_uuid'),
  thingsboardName: text('thingsboard_name'),
  isGateway: boolean('is_gateway').notNull().default(false),
  fkGatewayId: integer('fk_gateway_id'),
  /** The device's credential (MQTT user name, HTTP path): 128 random bits, rotatable. */
  accessToken: text('access_token').default(sql`replace(gen_random_uuid()::text, '-', '')`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  index('entities_tenant_idx').on(t.tenantId),
  index('entities_parent_idx').on(t.parentId),
  index('entities_tree_path_idx').on(t.treePath),
  uniqueIndex('entities_access_token_unique').on(t.accessToken),
  index('entities_gateway_child_idx').on(t.fkGatewayId, t.thingsboardName),
]);

export const groups = pgTable('groups', {
  id: id(),
  tenantId: tenantId(),
  parentId: integer('parent_id'),
  name: text('name').notNull(),
  treePath: text('tree_path').notNull().default(''),
  attributes: json('attributes'),
}, (t) => [index('groups_tenant_idx').on(t.tenantId)]);

export const entityGroups = pgTable('entity_groups', {
  tenantId: tenantId(),
  entityId: integer('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.entityId, t.groupId] }), index('entity_groups_group_idx').on(t.groupId)]);

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
const rollup = (name: string) => pgTable(name, rollupColumns(), (t) => [primaryKey({ columns: [t.entityId, t.key, t.bucket] })]);
export const telemetryHourly = rollup('telemetry_hourly');
export const telemetryDaily = rollup('telemetry_daily');
/** 15-minute buckets: the grain of time zones whose offset is not whole hours (+05:30, +05:45). */
export const telemetryQuarterHourly = rollup('telemetry_quarter_hourly');

/**
 * Local days of the time zones in TELEMETRY_DAY_ZONES (`telemetry_day_zones`), one roll-up row per
 * zone, device, key and local day: daily and monthly buckets in those zones read one row a day
 * instead of 24 hourly rows (server/telemetry/dayZones.ts keeps the list and builds a new zone).
 */
export const telemetryDailyZoned = pgTable('telemetry_daily_zoned', {
  ...rollupColumns(),
  zone: text('zone').notNull(),
}, (t) => [primaryKey({ columns: [t.entityId, t.key, t.zone, t.bucket] })]);

/** The zones the writer folds into `telemetry_daily_zoned` (a zone is listed once its rows are built). */
export const telemetryDayZones = pgTable('telemetry_day_zones', {
  zone: text('zone').primaryKey(),
});

/** Each device's latest value per key: what maps, lists and the entity detail show. */
export const telemetryLatest = pgTable('telemetry_latest', {
  tenantId: tenantId(),
  entityId: integer('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  ts: timestamp('ts', { withTimezone: true }).notNull(),
  ...telemetryValueColumns(),
}, (t) => [primaryKey({ columns: [t.entityId, t.key] }), index('telemetry_latest_tenant_idx').on(t.tenantId)]);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** A region's floor-plan image (SPEC §5: one file); the region's attributes.overlay places it. */
export const entityImages = pgTable('entity_images', {
  entityId: integer('entity_id').primaryKey().references(() => entities.id, { onDelete: 'cascade' }),
  tenantId: tenantId(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  updatedAt: updatedAt(),
}, (t) => [index('entity_images_tenant_idx').on(t.tenantId)]);

export const kpis = pgTable('kpis', {
  id: id(),
  tenantId: tenantId(),
  /** multilingual: { en, sk, … } */
  name: json('name'),
  module: text('module').notNull().default('factory-dashboard'),
  category: text('category'),
  attributes: json('attributes'),
  definition: json('definition'),
  query: jsonb('query').notNull().default(sql`'[]'::jsonb`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('kpis_tenant_idx').on(t.tenantId)]);

export const kpiGroups = pgTable('kpi_groups', {
  tenantId: tenantId(),
  kpiId: integer('kpi_id').notNull().references(() => kpis.id, { onDelete: 'cascade' }),
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.kpiId, t.groupId] })]);

export const watchers = pgTable('watchers', {
  id: id(),
  tenantId: tenantId(),
  name: text('name').notNull(),
  query: json('query'),
  condition: json('condition'),
  definition: json('definition'),
  entityIds: intList('entity_ids'),
  entityTypeIds: intList('entity_type_ids'),
  interval: integer('interval').notNull().default(60),
  status: text('status').notNull().default('active'),
  alert: boolean('alert').notNull().default(false),
  triggeredAt: timestamp('triggered_at', { withTimezone: true }),
  result: jsonb('result'),
  lastUpdatedBy: uuid('last_updated_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('watchers_tenant_idx').on(t.tenantId)]);

export const schedulers = pgTable('schedulers', {
  id: id(),
  tenantId: tenantId(),
  name: text('name').notNull(),
  status: text('status').notNull().default('active'),
  definition: json('definition'),
  entityIds: intList('entity_ids'),
  entityTypeIds: intList('entity_type_ids'),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }),
  result: text('result'),
  lastUpdatedBy: uuid('last_updated_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('schedulers_tenant_idx').on(t.tenantId)]);

export const profiles = pgTable('profiles', {
  id: id(),
  tenantId: tenantId(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  definition: json('definition'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('profiles_tenant_idx').on(t.tenantId)]);

export const boards = pgTable('boards', {
  id: id(),
  tenantId: tenantId(),
  /** 'performance' or 'public-api' */
  kind: text('kind').notNull().default('performance'),
  name: json('name'),
  description: json('description'),
  attributes: json('attributes'),
  resourceUuid: uuid('resource_uuid').notNull().defaultRandom(),
  ownerId: uuid('owner_id'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('boards_tenant_idx').on(t.tenantId)]);

export const boardGroups = pgTable('board_groups', {
  tenantId: tenantId(),
  boardId: integer('board_id').notNull().references(() => boards.id, { onDelete: 'cascade' }),
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.boardId, t.groupId] })]);

export const components = pgTable('components', {
  id: id(),
  tenantId: tenantId(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  definition: json('definition'),
  description: text('description'),
  layout: json('layout'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('components_tenant_idx').on(t.tenantId)]);

export const boardComponents = pgTable('board_components', {
  tenantId: tenantId(),
  boardId: integer('board_id').notNull().references(() => boards.id, { onDelete: 'cascade' }),
  componentId: integer('component_id').notNull().references(() => components.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.boardId, t.componentId] })]);

export const shares = pgTable('shares', {
  id: id(),
  tenantId: tenantId(),
  owner: uuid('owner').notNull(),
  resource: uuid('resource').notNull(),
  scope: text('scope').notNull(),
  granted: boolean('granted').notNull().default(false),
  requester: uuid('requester').notNull(),
  createdAt: createdAt(),
}, (t) => [index('shares_tenant_idx').on(t.tenantId)]);

export const notifications = pgTable('notifications', {
  id: id(),
  tenantId: tenantId(),
  userUuid: uuid('user_uuid').notNull().references(() => users.id, { onDelete: 'cascade' }),
  active: boolean('active').notNull().default(true),
  channels: textList('channels'),
  logFilter: json('log_filter'),
}, (t) => [index('notifications_tenant_idx').on(t.tenantId)]);

export const logs = pgTable('logs', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  tenantId: tenantId(),
  entityId: integer('entity_id'),
  timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
  type: text('type').notNull(),
  status: text('status').notNull().default('new'),
  source: text('source').notNull(),
  message: text('message').notNull(),
  messageData: json('message_data'),
}, (t) => [index('logs_tenant_ts_idx').on(t.tenantId, t.timestamp)]);

export const apiUsers = pgTable('api_users', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: tenantId(),
  username: text('username').notNull(),
  passwordHash: text('password_hash').notNull(),
  permissions: textList('permissions'),
  tokenHash: text('token_hash'),
  createdAt: createdAt(),
}, (t) => [index('api_users_tenant_idx').on(t.tenantId)]);

/** A sign-in; its refresh tokens rotate, and re-use of a dead one revokes the whole session. */
export const authSessions = pgTable('auth_sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: tenantId(),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [index('auth_sessions_user_idx').on(t.userId)]);

export const refreshTokens = pgTable('refresh_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  tenantId: tenantId(),
  sessionId: uuid('session_id').notNull().references(() => authSessions.id, { onDelete: 'cascade' }),
  usedAt: timestamp('used_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
}, (t) => [index('refresh_tokens_session_idx').on(t.sessionId)]);

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

/** Tables that row-level security guards (all but `tenants`, whose policy is on `id`). */
export const tenantTables = [
  'users', 'entity_type_groups', 'entity_types', 'entities', 'groups', 'entity_groups', 'telemetry',
  'telemetry_hourly', 'telemetry_daily', 'telemetry_quarter_hourly', 'telemetry_daily_zoned', 'telemetry_latest', 'entity_images', 'kpis', 'kpi_groups', 'watchers', 'schedulers', 'profiles', 'boards',
  'board_groups', 'components', 'board_components', 'shares', 'notifications', 'logs', 'api_users',
  'auth_sessions', 'refresh_tokens',
] as const;
