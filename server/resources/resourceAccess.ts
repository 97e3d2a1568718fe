// Who may do what with a model's records, decided in one place for every door (REST, GraphQL,
// the live subscription): the model's access rule per action (x-access: modules and permission),
// the grant a record of a granted model needs for the action (bindings.ts `grants`), the
// permissions written fields and values need (x-permission, x-value-permissions), the fields left
// out of what a caller sees, and which live changes reach a subscriber.
import { modulesGranted, permissionHeldByName } from '../../src/schemas/modules.ts';
import { accessRule, fieldsWith, type Action, type FieldSchema, type ModelSchema } from '../../src/schemas/model.ts';
import { ApiError, forbidden } from '../errors.ts';
import type { ResourceChange } from '../live/resourceEvents.ts';
import { hasPermission, type Caller } from '../auth/caller.ts';
import { GRANT_RANKS, type Grant, type RecordGrants } from './bindings.ts';

type RecordData = Record<string, unknown>;

/** Throws 405 when the model does not offer the action, 403 naming what the caller lacks. */
export function authorize(caller: Caller, schema: ModelSchema, action: Action): void {
  const rule = accessRule(schema, action);
  if (!rule) throw new ApiError(405, 'NOT_SUPPORTED', `${schema.$id} does not support ${action}`);
  if (!modulesGranted(caller.modules, rule.modules)) throw forbidden(`the module ${rule.modules!.join(' or ')}`);
  if (rule.permission && !hasPermission(caller, rule.permission)) throw forbidden(rule.permission);
  if (rule.maintenanceModes && !caller.maintenanceModes?.length) throw forbidden('a maintenance mode');
}

/** The refusal of a record the caller sees but holds too little on (`field`: the reference naming it). */
function grantRefusal(noun: string, needs: Grant, field?: string): ApiError {
  const message = needs === 'owner' ? `Only the ${noun}'s owner may do this.` : `You may only view this ${noun}: changing it needs the edit scope.`;
  return new ApiError(403, 'FORBIDDEN', field ? `${field}: ${message}` : message, field, { scope: needs });
}

type GrantedAction = 'read' | 'update' | 'delete';
/** The grant an action needs; reading needs any grant (a record with none is not found at all). */
const grantNeeded = (grants: RecordGrants, action: GrantedAction): Grant => (action === 'read' ? 'view' : grants.needs[action] ?? 'view');

/** Whether the caller's grant on a record (1 view, 2 edit, 3 owner) allows the action. */
export const grantAllows = (grants: RecordGrants, grant: number, action: GrantedAction) => grant >= GRANT_RANKS[grantNeeded(grants, action)];

/** Throws 403 when the caller's grant on a record is below what the action needs (grantAllows). */
export function checkGrant(grants: RecordGrants, grant: number, action: GrantedAction, field?: string): void {
  if (!grantAllows(grants, grant, action)) throw grantRefusal(grants.noun, grantNeeded(grants, action), field);
}

/** Throws 403 when a record named by a reference is held below `needs`. */
export function checkReferencedGrant(noun: string, grant: number, needs: Grant, field: string): void {
  if (grant < GRANT_RANKS[needs]) throw grantRefusal(noun, needs, field);
}

/** Refuses written fields and values the caller's permissions do not cover. */
export function checkWritePermissions(caller: Caller, properties: Readonly<Record<string, FieldSchema>>, data: RecordData, path = ''): void {
  for (const [field, value] of Object.entries(data)) {
    const schema = properties[field];
    if (!schema || value === undefined) continue;
    const fieldPath = path ? `${path}.${field}` : field;
    if (schema['x-permission'] && !permissionHeldByName(caller.permissions, schema['x-permission'])) throw forbidden(schema['x-permission']);
    const valuePermission = typeof value === 'string' ? schema['x-value-permissions']?.[value] : undefined;
    if (valuePermission && !permissionHeldByName(caller.permissions, valuePermission)) {
      throw new ApiError(403, 'FORBIDDEN', `${fieldPath} "${value}" needs the permission ${valuePermission}.`, fieldPath, { permission: valuePermission });
    }
    if (schema.properties && value && typeof value === 'object' && !Array.isArray(value)) {
      checkWritePermissions(caller, schema.properties, value as RecordData, fieldPath);
    }
  }
}

/** The fields guarded by a permission the caller lacks. */
const hiddenFields = (caller: Caller, schema: ModelSchema) =>
  fieldsWith(schema, 'x-permission').filter((field) => !permissionHeldByName(caller.permissions, schema.properties[field]['x-permission']!));

/** The record as this caller may see it: fields guarded by a permission it lacks are left out. */
export function visibleRecord(caller: Caller, schema: ModelSchema, record: RecordData): RecordData {
  const hidden = hiddenFields(caller, schema);
  if (!hidden.length) return record;
  return Object.fromEntries(Object.entries(record).filter(([field]) => !hidden.includes(field)));
}

/**
 * What, besides the query, decides the records a caller sees of a model: its own user on
 * owner-scoped models and the fields hidden from it. Two callers with the same key see the same
 * list (the cache of lists keeps one answer per key).
 */
export const visibilityKey = (caller: Caller, schema: ModelSchema) =>
  `${schema['x-owner'] ? caller.userId : ''}:${hiddenFields(caller, schema).join(',')}`;

/**
 * Whether a live change reaches the subscriber: owner-scoped records reach their owner only, and
 * granted ones the users who held a grant on them before or after the change.
 */
export const receivesChange = (caller: Caller | undefined, change: ResourceChange) =>
  (!change.owner || change.owner === caller?.userId) && (!change.audience || (!!caller && change.audience.includes(caller.userId.toLowerCase())));
