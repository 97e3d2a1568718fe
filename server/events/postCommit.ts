// What happens after a commit, as events on one bus (eventBus.ts): emitted where the commit
// happens, heard by the parts that react — the read cache, the live bus, the engines and the
// notifications. Nothing here knows who listens.
import type { FastifyBaseLogger } from 'fastify';
import type { EntityUpdate } from '../live/liveEvents.ts';
import type { ResourceChange } from '../live/resourceEvents.ts';
import type { LatestChange, StoredSince } from '../telemetry/telemetryWriter.ts';
import { eventBus, type EventBus } from './eventBus.ts';

export type PostCommitEvents = {
  /** A record of a model was created, updated or deleted, by a door or an engine. */
  'resource.changed': { tenantId: string; change: ResourceChange };
  /** An entity changed outside the resource engine: a device's activity or attributes, a user's attribute update, a scheduler's result. */
  'entity.updated': { tenantId: string; update: EntityUpdate };
  /** Data of the tenant that cached reads show changed outside the resource engine (attributes, trusted origins). */
  'tenant.changed': { tenantId: string };
  /** A batch of devices' latest values was committed. */
  'telemetry.latest': LatestChange[];
  /** Batches of points were committed: their earliest instant per tenant; `elsewhere`: by another instance, told for its late points only. */
  'telemetry.stored': { batches: StoredSince[]; elsewhere?: true };
  /** An engine changed records of its own, of one model (a watcher's alert, schedulers' runs, a window's state); `notify`: the users a new log entry is for. */
  'engine.changed': { tenantId: string; model: string; records: { id: number; notify?: string[] }[]; action?: 'created' | 'updated' };
};

export type PostCommitBus = EventBus<PostCommitEvents>;

export const postCommitEvents = (log: FastifyBaseLogger): PostCommitBus =>
  eventBus<PostCommitEvents>(({ event, subscriber, error }) => log.error({ err: error, event, subscriber }, `${subscriber} failed on ${event}`));
