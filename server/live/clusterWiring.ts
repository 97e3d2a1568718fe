// Several instances may share a PostgreSQL database: live events, device sessions opened and
// points stored late go to the others too (clusterBus.ts). When events meant for this instance may
// have been lost, its subscribers' sockets are closed (they connect again, to any instance, and
// read afresh) and `missed` drops what was kept on the strength of them.
import type { FastifyInstance } from 'fastify';
import { LATE_SHARED_MS } from '../cache/closedBuckets.ts';
import type { Database } from '../db/database.ts';
import type { PostCommitBus } from '../events/postCommit.ts';
import { logsFailure } from '../logsFailure.ts';
import type { MqttBroker } from '../ingest/mqttListener.ts';
import { startClusterBus } from './clusterBus.ts';
import type { StoredSince } from '../telemetry/telemetryWriter.ts';
import type { LiveBus } from './liveEvents.ts';
import type { ClusterEvent } from './clusterBus.ts';

/** The cluster bus's events of a device session opened and of points stored late (not subscription topics). */
const SESSION_OPENED_TOPIC = 'device_session_opened';
const STORED_LATE_TOPIC = 'telemetry_stored_late';

const isStoredSince = (value: unknown): value is StoredSince =>
  typeof (value as StoredSince | null)?.tenantId === 'string' && Number.isFinite((value as StoredSince).from);

/** `heard`: each live event of another instance, as this instance's subscribers get it (the map's grids follow them). */
export async function connectInstances(app: FastifyInstance, db: Database, live: LiveBus, broker: MqttBroker, events: PostCommitBus, missed: () => void, heard: (event: ClusterEvent) => void) {
  const bus = await startClusterBus({
    db,
    instanceId: app.instanceId,
    deliver: (event) => {
      if (event.topic === STORED_LATE_TOPIC) {
        const batches = Array.isArray(event.payload) ? event.payload.filter(isStoredSince) : [];
        if (batches.length) events.emit('telemetry.stored', { batches, elsewhere: true });
        return;
      }
      if (event.topic !== SESSION_OPENED_TOPIC) {
        heard(event);
        return live.receive(event);
      }
      const { key, openedAt } = event.payload as { key?: unknown; openedAt?: unknown };
      if (typeof key === 'string' && typeof openedAt === 'number') broker.takenOver(key, openedAt);
    },
    onGap: () => {
      app.log.warn('live events of other instances were missed: subscribers connect again');
      missed();
    },
    onError: logsFailure(app.log, 'live events between instances failed'),
  });
  live.connect(bus);
  // a device's second connection (same token and client id) on another instance takes over
  broker.onSessionOpened((key, openedAt) => bus.send({ topic: SESSION_OPENED_TOPIC, payload: { key, openedAt } }));
  // this instance's points stored late; those on time land after anything kept as final elsewhere
  events.on('telemetry.stored', 'late points to other instances', ({ batches, elsewhere }) => {
    if (elsewhere) return;
    const lateBefore = Date.now() - LATE_SHARED_MS;
    const late = batches.filter((batch) => batch.from < lateBefore);
    if (late.length) bus.send({ topic: STORED_LATE_TOPIC, payload: late });
  });
  app.addHook('onClose', () => bus.close());
}
