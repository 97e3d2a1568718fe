// The lighting doors (docs/lighting.md): an operator's override of lamps or groups for a while and
// its end (permission dashboard.entity.manually_editable, checked before the arguments), each a log
// row; what the entity view shows of a lamp; the lamps whose reported level drifts from their own.
import { randomUUID } from 'node:crypto';
import {
  lampLightingArgsSchema, lightingOverrideArgsSchema, lightingOverrideEndArgsSchema,
  type LightingOverrideArgs, type LightingOverrideEndArgs,
} from '../../src/schemas/lighting.ts';
import { MANUAL_EDIT_PERMISSION } from '../../src/schemas/entityAttributeUpdate.ts';
import { queueCommands, recentCommands } from '../db/commandQueries.ts';
import { setSharedAttributes } from '../db/deviceAttributeQueries.ts';
import type { Database, Tx } from '../db/database.ts';
import {
  driftingLamps, endLampOverrides, lampLighting, overrideLamps,
} from '../db/lightingQueries.ts';
import { writeEngineLog } from '../db/logQueries.ts';
import { COMMAND_TTL_MS, lightLamps, SET_DIM } from './lighting/lampLighting.ts';
import { ApiError, notFound } from '../errors.ts';
import { ENTITY_NOT_FOUND } from '../resources/rules/entityRules.ts';
import { validated } from '../schemaValidator.ts';
import { requireModule, requirePermission, type Caller } from '../auth/caller.ts';

/** Commands shown with a lamp, newest first. */
const COMMANDS_SHOWN = 10;
/** Drifting lamps listed at most. */
const DRIFTING_SHOWN = 200;
const DASHBOARD = 'factory-dashboard';

export interface LightingServiceHooks {
  /** The lighting engine's clock: a lamp whose override ends is decided as the engine would now. */
  now(): number;
  /** In the log's transaction, and after the commit (notifications). */
  onLogged?(tx: Tx, tenantId: string, logIds: readonly number[]): Promise<void>;
  afterLogged?(): void;
}

export function lightingService(db: Database, hooks: LightingServiceHooks) {
  const logOverride = async (tx: Tx, caller: Caller, data: Record<string, unknown>, message: string, lamps: number[]) => {
    const logId = await writeEngineLog(tx, {
      tenantId: caller.tenantId, entityId: lamps.length === 1 ? lamps[0] : null, at: new Date().toISOString(), type: 'notice', source: 'profile',
      message, eventKey: `lighting:${randomUUID()}`, data: { ...data, user: caller.userId, lamps: lamps.length },
    });
    if (logId !== undefined) await hooks.onLogged?.(tx, caller.tenantId, [logId]);
  };

  return {
    /** Puts lamps (and the lamps of groups) at a level for some minutes; the profile takes over after. */
    async override(caller: Caller, args: Record<string, unknown>) {
      requirePermission(caller, MANUAL_EDIT_PERMISSION);
      const change = validated<LightingOverrideArgs>(lightingOverrideArgsSchema, args, 'args');
      const lamps = await db.tenantTx(caller.tenantId, async (tx) => {
        const lamps = await overrideLamps(tx, caller.tenantId, {
          entityIds: change.entity_ids ?? [], groupIds: change.group_ids ?? [], level: change.level, minutes: change.minutes, userId: caller.userId,
        });
        await setSharedAttributes(tx, caller.tenantId, lamps.map((entityId) => ({ entityId, attributes: { dim_level: change.level } })));
        await queueCommands(tx, caller.tenantId, lamps.map((entityId) => ({
          entityId, method: SET_DIM, params: { level: change.level }, source: 'override' as const, ttlMs: COMMAND_TTL_MS,
        })));
        if (lamps.length) {
          await logOverride(tx, caller, { event: 'override', level: change.level, minutes: change.minutes },
            `Lighting override: ${lamps.length} lamp(s) at ${change.level} % for ${change.minutes} min`, lamps);
        }
        return lamps;
      });
      if (!lamps.length) throw new ApiError(404, 'LAMPS_NOT_FOUND', 'No lamp was found among these entities and groups');
      hooks.afterLogged?.();
      return { entity_ids: lamps, until: new Date(Date.now() + change.minutes * 60_000).toISOString() };
    },

    /**
     * Ends overrides now: the lamps follow their profiles again at once — decided, and their
     * commands queued, in the same transaction, so whoever reads a lamp next sees its profile's level.
     */
    async endOverride(caller: Caller, args: Record<string, unknown>) {
      requirePermission(caller, MANUAL_EDIT_PERMISSION);
      const change = validated<LightingOverrideEndArgs>(lightingOverrideEndArgsSchema, args, 'args');
      const lamps = await db.tenantTx(caller.tenantId, async (tx) => {
        const ended = await endLampOverrides(tx, change.entity_ids ?? [], change.group_ids ?? []);
        if (ended.length) {
          await lightLamps(tx, caller.tenantId, hooks.now(), { only: ended });
          await logOverride(tx, caller, { event: 'override_end' }, `Lighting override ended: ${ended.length} lamp(s) follow their profile again`, ended);
        }
        return ended;
      });
      if (lamps.length) hooks.afterLogged?.();
      return { entity_ids: lamps };
    },

    /** A lamp's decided and reported level, its profile and through what it follows it, its recent commands. */
    async lamp(caller: Caller, args: Record<string, unknown>) {
      requireModule(caller, DASHBOARD);
      const { entity_id: entityId } = validated<{ entity_id: number }>(lampLightingArgsSchema, args, 'args');
      const lamp = await db.tenantTx(caller.tenantId, (tx) => lampLighting(tx, entityId));
      if (!lamp) throw notFound(ENTITY_NOT_FOUND);
      const commands = await recentCommands(db, caller.tenantId, entityId, COMMANDS_SHOWN);
      return {
        entity_id: entityId,
        level: lamp.level, reason: lamp.reason, since: lamp.since,
        reported_level: lamp.reported_level, reported_at: lamp.reported_at,
        override_level: lamp.override_level, override_until: lamp.override_until,
        profile: lamp.profile_id === null ? null : { id: lamp.profile_id, name: lamp.profile_name },
        through: lamp.through_kind === null ? null : { kind: lamp.through_kind, id: lamp.through_id, name: lamp.through_name },
        drifting: lamp.level !== null && lamp.reported_level !== lamp.level,
        commands: commands.map((command) => ({
          id: command.id, method: command.method, params: command.params, status: command.status, source: command.source,
          created_at: command.created_at, answered_at: command.answered_at,
        })),
      };
    },

    /** Lamps reporting another level than their own, longest first. */
    async drifting(caller: Caller) {
      requireModule(caller, DASHBOARD);
      return db.tenantTx(caller.tenantId, (tx) => driftingLamps(tx, DRIFTING_SHOWN));
    },
  };
}

export type LightingService = ReturnType<typeof lightingService>;
