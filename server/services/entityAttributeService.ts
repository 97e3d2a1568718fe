// update_entity_attribute: a hand edit of an entity's attributes and position from the dashboard
// (SPEC §4–§7). The permission comes first, then the arguments. Only what differs from the stored
// values is written; the change is logged with its old and new values and told after the commit
// (`entity.updated`: the entity's live subscribers).
import {
  entityAttributeUpdateSchema, MANUAL_EDIT_PERMISSION, NO_ATTRIBUTE_CHANGE, isServerKeptAttribute, sharedAttributeUpdateSchema,
  type EntityAttributeUpdate, type SharedAttributeUpdate,
} from '../../src/schemas/entityAttributeUpdate.ts';
import { geometryProblem, type Geometry } from '../../src/schemas/geometry.ts';
import { validated } from '../schemaValidator.ts';
import type { Database } from '../db/database.ts';
import { lockedEntityAttributes, lockedSharedAttributes, setSharedAttributes, writeEntityAttributes } from '../db/deviceAttributeQueries.ts';
import { logUserChange } from '../db/logQueries.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import type { PostCommitBus } from '../events/postCommit.ts';
import { requirePermission, type Caller } from '../auth/caller.ts';
import { ENTITY_NOT_FOUND } from '../resources/rules/entityRules.ts';

type Json = unknown;

export interface EntityAttributeResult { id: number; attributes: Record<string, Json>; geom: Geometry | null; updated_at: string }

const same = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);

export function entityAttributeService(db: Database, events: PostCommitBus) {
  return {
    async update(caller: Caller, args: Record<string, unknown>): Promise<EntityAttributeResult> {
      requirePermission(caller, MANUAL_EDIT_PERMISSION);
      const change = validated<EntityAttributeUpdate>(entityAttributeUpdateSchema, args, 'args');
      const givenGeom = change.geom as Geometry | null | undefined;
      const kept = Object.keys(change.attributes ?? {}).find(isServerKeptAttribute);
      if (kept) {
        throw new ApiError(400, 'ATTRIBUTE_KEPT_BY_SERVER', `The attribute ${kept} is kept by the server from the device's connection and cannot be edited`, `attributes.${kept}`, { key: kept });
      }
      const problem = geometryProblem(givenGeom);
      if (problem) throw badRequest('GEOMETRY_INVALID', `geom: ${problem}`, 'geom');

      const result = await db.tenantTx(caller.tenantId, async (tx) => {
        const stored = await lockedEntityAttributes(tx, change.id);
        if (!stored) throw notFound(ENTITY_NOT_FOUND);
        const before = stored.attributes ?? {};
        const changed: Record<string, { from: Json; to: Json }> = {};
        for (const [key, value] of Object.entries(change.attributes ?? {})) {
          if (!same(before[key] ?? null, value ?? null)) changed[key] = { from: before[key] ?? null, to: value ?? null };
        }
        const geomChanged = givenGeom !== undefined && !same(stored.geom, givenGeom);
        if (!Object.keys(changed).length && !geomChanged) throw badRequest('NO_ATTRIBUTE_CHANGE', NO_ATTRIBUTE_CHANGE);

        const after = { ...before };
        for (const [key, { to }] of Object.entries(changed)) {
          if (to === null) delete after[key];
          else after[key] = to;
        }
        const geom = geomChanged ? givenGeom ?? null : stored.geom;
        const updatedAt = await writeEntityAttributes(tx, change.id, after, geom);
        await logUserChange(tx, caller, change.id, 'Entity attributes changed',
          { vendor: change.vendor, attributes: changed, ...(geomChanged ? { geom: { from: stored.geom, to: geom } } : {}) },
          new Date(change.ts ?? Date.now()).toISOString());
        const diff: Record<string, Json> = {};
        if (Object.keys(changed).length) diff.attributes = Object.fromEntries(Object.entries(changed).map(([key, { to }]) => [key, to]));
        if (geomChanged) diff.geom = geom;
        return { entityTypeId: stored.entity_type_id, attributes: after, geom, updatedAt, diff };
      });
      events.emit('tenant.changed', { tenantId: caller.tenantId });
      events.emit('entity.updated', { tenantId: caller.tenantId, update: { id: change.id, entity_type_id: result.entityTypeId, diff: result.diff, updated_at: result.updatedAt } });
      return { id: change.id, attributes: result.attributes, geom: result.geom, updated_at: result.updatedAt };
    },

    /** update_shared_attributes: what the platform sets for a device, pushed to it wherever it is connected; logged. */
    async updateShared(caller: Caller, args: Record<string, unknown>): Promise<{ id: number; shared_attributes: Record<string, Json> }> {
      requirePermission(caller, MANUAL_EDIT_PERMISSION);
      const change = validated<SharedAttributeUpdate>(sharedAttributeUpdateSchema, args, 'args');
      const attributes = change.attributes as Record<string, Json>;
      return db.tenantTx(caller.tenantId, async (tx) => {
        const shared = await lockedSharedAttributes(tx, change.id);
        if (!shared) throw notFound(ENTITY_NOT_FOUND);
        const changed = Object.fromEntries(Object.entries(attributes).filter(([key, value]) => !same(shared[key] ?? null, value ?? null)));
        if (!Object.keys(changed).length) throw badRequest('NO_ATTRIBUTE_CHANGE', NO_ATTRIBUTE_CHANGE);
        await setSharedAttributes(tx, caller.tenantId, [{ entityId: change.id, attributes: changed }]);
        await logUserChange(tx, caller, change.id, 'Shared attributes changed', { shared_attributes: changed });
        const after = { ...shared, ...changed };
        for (const [key, value] of Object.entries(changed)) if (value === null) delete after[key];
        return { id: change.id, shared_attributes: after };
      });
    },
  };
}
export type EntityAttributeService = ReturnType<typeof entityAttributeService>;
