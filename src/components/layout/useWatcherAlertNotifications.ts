// Watcher alert tracking (SPEC §4): a watcher whose alert changed since the list was last read, or
// a new one with its alert set, is shown as a notification for 6 s below the navigation bar — an
// error when it went into alert, a success when it came back — to every user who sees watchers, as
// the bell counts them (no notification rule needed). The states found at the first read are the
// starting point, not news. A user whose in-app rule brought the watcher's log a moment ago
// (useLogNotifications, which says more: the device, the value) is not told again.
import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** How long an alert's notification stays (SPEC §4: 6000 ms), a watcher's or its log's. */
export const ALERT_NOTIFICATION_S = 6;

export interface WatcherAlertState { id: number; name?: string; alert: boolean }

/** When each watcher's log was last shown in the app (this page's). */
const logShownAt = new Map<number, number>();
/** An in-app notification of the watcher's log was shown now: its alert is not told again meanwhile. */
export const watcherLogShown = (watcherId: number) => void logShownAt.set(Number(watcherId), Date.now());
const logShownLately = (watcherId: number) => Date.now() - (logShownAt.get(watcherId) ?? -Infinity) < ALERT_NOTIFICATION_S * 1000;

export function useWatcherAlertNotifications(watchers: readonly WatcherAlertState[] | undefined) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const seen = useRef<Map<number, boolean> | undefined>(undefined);
  useEffect(() => {
    if (!watchers) return;
    const previous = seen.current;
    seen.current = new Map(watchers.map((watcher) => [watcher.id, watcher.alert === true]));
    if (!previous) return;
    for (const watcher of watchers) {
      const alert = watcher.alert === true;
      const before = previous.get(watcher.id);
      if (before === alert || (before === undefined && !alert) || logShownLately(watcher.id)) continue;
      const name = watcher.name ?? `#${watcher.id}`;
      (alert ? notification.error : notification.success)({
        key: `watcher-${watcher.id}`,
        message: t(alert ? 'watcherAlerts.inAlert' : 'watcherAlerts.recovered', { name }),
        duration: ALERT_NOTIFICATION_S,
      });
    }
  }, [watchers, notification, t]);
}
