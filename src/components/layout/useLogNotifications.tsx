// In-app notifications (SPEC §4): a log an engine wrote that the user's notification rules ask for
// on the in-app channel arrives live (`resource_changed` on logs, marked `notify` for this user by
// the server) and is shown for 6 s below the navigation bar — an error for an alert or no data
// (or a log of type warning and worse), a success for a return to normal — in the reader's language.
import { useCan, useSubscription } from '@refinedev/core';
import { App } from 'antd';
import { LogMessage } from '../LogMessage.tsx';
import { ALERT_NOTIFICATION_S, watcherLogShown } from './useWatcherAlertNotifications.ts';

const BAD_TRANSITIONS = ['alert', 'no_data'];
const BAD_TYPES = ['emergency', 'alert', 'critical', 'error', 'warning'];

interface NotifiedLog { type?: string; source?: string; message?: string; message_data?: { transition?: string; source_id?: number } | null }

export function useLogNotifications() {
  const { notification } = App.useApp();
  const { data: canRead } = useCan({ resource: 'log', action: 'list' });
  useSubscription({
    channel: 'resources/log',
    types: ['created'],
    enabled: canRead?.can === true,
    onLiveEvent: (event) => {
      const record = event.payload.record as NotifiedLog | null;
      if (!event.payload.notify || !record) return;
      const transition = record.message_data?.transition;
      // the watcher's own alert notification then says nothing more (useWatcherAlertNotifications)
      if (record.source === 'watcher' && record.message_data?.source_id !== undefined) watcherLogShown(record.message_data.source_id);
      const bad = transition ? BAD_TRANSITIONS.includes(transition) : BAD_TYPES.includes(record.type ?? '');
      (bad ? notification.error : notification.success)({
        key: `log-${String(event.payload.id)}`,
        message: <LogMessage message={record.message ?? ''} source={record.source} data={record.message_data} />,
        duration: ALERT_NOTIFICATION_S,
      });
    },
  });
}
