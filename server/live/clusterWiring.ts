// Several instances may share a PostgreSQL database: live events and device sessions opened go
// to the others too (clusterBus.ts). When events meant for this instance's subscribers may have
// been lost, their sockets are closed: they connect again (to any instance) and read afresh.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { logsFailure } from '../logsFailure.ts';
import type { MqttBroker } from '../ingest/mqttListener.ts';
import { startClusterBus } from './clusterBus.ts';
import type { LiveBus } from './liveEvents.ts';

/** The cluster bus's event of a device session opened (not a subscription topic). */
const SESSION_OPENED_TOPIC = 'device_session_opened';

export async function connectInstances(app: FastifyInstance, db: Database, live: LiveBus, broker: MqttBroker, restartSubscribers: () => void) {
  const bus = await startClusterBus({
    db,
    instanceId: app.instanceId,
    deliver: (event) => {
      if (event.topic !== SESSION_OPENED_TOPIC) return live.receive(event);
      const { key, openedAt } = event.payload as { key?: unknown; openedAt?: unknown };
      if (typeof key === 'string' && typeof openedAt === 'number') broker.takenOver(key, openedAt);
    },
    onGap: () => {
      app.log.warn('live events of other instances were missed: subscribers connect again');
      restartSubscribers();
    },
    onError: logsFailure(app.log, 'live events between instances failed'),
  });
  live.connect(bus);
  // a device's second connection (same token and client id) on another instance takes over
  broker.onSessionOpened((key, openedAt) => bus.send({ topic: SESSION_OPENED_TOPIC, payload: { key, openedAt } }));
  app.addHook('onClose', () => bus.close());
}
