// The engines that act on their own: watchers, schedulers, lighting, maintenance windows, the
// notifications they send, the expiry of devices' commands and the roll-ups' folder. What an
// engine changes is told as a post-commit event (`engine.changed`, `entity.updated`,
// `tenant.changed`); a watcher hears devices' new latest values (`telemetry.latest`); an engine's
// log entry queues its e-mails in its own transaction, and after the commit the sender wakes and
// its in-app recipients are told.
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../appOptions.ts';
import type { Tx } from '../db/database.ts';
import { logsFailure } from '../logsFailure.ts';
import type { PostCommitBus } from '../events/postCommit.ts';
import type { DeviceCommands } from '../ingest/deviceCommands.ts';
import type { Foreground } from '../foreground.ts';
import { startWorkLoop } from '../workLoop.ts';
import { startLightingEngine } from './lighting/lightingEngine.ts';
import { startMaintenanceEngine } from './maintenance/maintenanceEngine.ts';
import { startRollupFolder } from './rollups/rollupFolder.ts';
import { NOTIFICATIONS_OFF, startNotificationDelivery } from './notifications/notificationDelivery.ts';
import { inAppRecipients } from './notifications/queueDeliveries.ts';
import { startSchedulerEngine } from './schedulers/schedulerEngine.ts';
import { startWatcherEngine } from './watchers/watcherEngine.ts';

/** How often commands past their time to live are marked expired. */
const COMMAND_EXPIRY_EVERY_MS = 30_000;

export function startEngines(app: FastifyInstance, options: AppOptions, events: PostCommitBus, commands: DeviceCommands, front: Foreground) {
  const report = (what: string) => logsFailure(app.log, what);
  const notifications = options.smtp
    ? startNotificationDelivery(options.db, { smtpUrl: options.smtp.url, from: options.smtp.from, onError: report('notification delivery failed') })
    : NOTIFICATIONS_OFF;
  /**
   * An engine's log hooks: in the logs' transaction their e-mails are queued and its in-app
   * recipients found; after the commit the sender wakes and the log is told to them. One per
   * engine: each runs its transactions one after another, so what waits is committed.
   */
  const logged = () => {
    const inApp: { tenantId: string; logId: number; users: string[] }[] = [];
    return {
      onLogged: async (tx: Tx, tenantId: string, logIds: readonly number[]) => {
        await notifications.queueDeliveries(tx, tenantId, logIds);
        for (const { logId, users } of await inAppRecipients(tx, tenantId, logIds)) inApp.push({ tenantId, logId, users });
      },
      afterLogged: () => {
        notifications.wake();
        for (const [tenantId, logs] of Map.groupBy(inApp.splice(0), (log) => log.tenantId)) {
          events.emit('engine.changed', { tenantId, model: 'log', records: logs.map(({ logId, users }) => ({ id: logId, notify: users })), action: 'created' });
        }
      },
    };
  };
  const changed = (model: string) => (tenantId: string, id: number) => events.emit('engine.changed', { tenantId, model, records: [{ id }] });

  const watcherEngine = startWatcherEngine(options.db, {
    ...logged(),
    everyMs: options.enginesEveryMs,
    yieldTo: front.yieldTo,
    onError: report('watcher evaluation failed'),
    onWatcherChanged: changed('watcher'),
  });
  events.on('telemetry.latest', 'watchers of latest values', (changes) => {
    for (const change of changes) watcherEngine.latestChanged(change);
  });
  const schedulerEngine = startSchedulerEngine(options.db, {
    ...logged(),
    everyMs: options.enginesEveryMs,
    onError: report('scheduler run failed'),
    onEntitiesChanged: (tenantId, entities) => {
      events.emit('tenant.changed', { tenantId });
      const updatedAt = new Date().toISOString();
      for (const entity of entities) {
        events.emit('entity.updated', { tenantId, update: { id: entity.id, entity_type_id: entity.entity_type_id, diff: { attributes: entity.attributes }, updated_at: updatedAt } });
      }
    },
    onSchedulersChanged: (tenantId, ids) => events.emit('engine.changed', { tenantId, model: 'scheduler', records: ids.map((id) => ({ id })) }),
  });
  const lightingEngine = startLightingEngine(options.db, {
    everyMs: options.enginesEveryMs, now: options.lightingNow, yieldTo: front.yieldTo, onError: report('lighting tick failed'),
  });
  const maintenanceEngine = startMaintenanceEngine(options.db, { onError: report('maintenance window progress failed'), onWindowChanged: changed('maintenance_window') });
  const rollupFolder = startRollupFolder(options.db, { onError: report('roll-up fold failed') });
  const commandExpiry = startWorkLoop({ everyMs: COMMAND_EXPIRY_EVERY_MS, work: commands.expire, onError: report('command expiry failed') });
  app.addHook('onClose', async () => {
    await Promise.all([watcherEngine.stop(), schedulerEngine.stop(), lightingEngine.stop(), maintenanceEngine.stop(), rollupFolder.stop(), commandExpiry.stop()]);
    await notifications.stop(); // no further e-mail begun; those under way settle while the database is open
  });
}
