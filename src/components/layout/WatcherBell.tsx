// The bell linking to /watcher, with the number of watchers in alert state: polled (SPEC §9) and
// live (the watchers' resource_changed events refetch it). A watcher that enters or leaves alert
// while the app is open is announced (SPEC §4): an error or success notification for 6 s.
import { BellOutlined } from '@ant-design/icons';
import { useList } from '@refinedev/core';
import { App, Badge, Button, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export const WATCHER_POLL_MS = 30_000;
export const WATCHER_ALERT_NOTIFICATION_S = 6;

interface WatcherAlertState {
  id: number;
  name: string;
  alert: boolean;
}

/** Announces each watcher whose alert changed since the last answer (or that is new and in alert). */
function useAlertAnnouncements(watchers: WatcherAlertState[] | undefined) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const known = useRef<Map<number, boolean>>(undefined);
  useEffect(() => {
    if (!watchers) return;
    const before = known.current;
    known.current = new Map(watchers.map((watcher) => [watcher.id, watcher.alert]));
    if (!before) return; // the first answer is the state the user starts from
    for (const watcher of watchers) {
      const was = before.get(watcher.id);
      if (was === watcher.alert || (was === undefined && !watcher.alert)) continue;
      const open = watcher.alert ? notification.error : notification.success;
      open({
        key: `watcher-alert-${watcher.id}`,
        message: t(watcher.alert ? 'navbar.watcherAlert' : 'navbar.watcherNormal', { name: watcher.name }),
        duration: WATCHER_ALERT_NOTIFICATION_S,
      });
    }
  }, [watchers, notification, t]);
}

export function WatcherBell() {
  const { t } = useTranslation();
  const { query } = useList<WatcherAlertState>({
    resource: 'watcher',
    pagination: { mode: 'off' },
    errorNotification: false,
    queryOptions: { refetchInterval: WATCHER_POLL_MS },
    liveMode: 'auto',
  });
  useAlertAnnouncements(query.data?.data);
  const alertCount = (query.data?.data ?? []).filter((watcher) => watcher.alert === true).length;

  // the accessible name holds the count the badge shows (WCAG 2.5.3)
  const title = alertCount > 0 ? t('navbar.watchersInAlert', { count: alertCount }) : t('navbar.watchers');
  return (
    <Tooltip title={title}>
      <Link to="/watcher" data-testid="watcher-bell" aria-label={title} data-alert-count={alertCount}>
        <Badge count={alertCount} size="small" offset={[-4, 4]}>
          <Button type="text" tabIndex={-1} icon={<BellOutlined style={{ fontSize: 18 }} />} className="navbar-button" />
        </Badge>
      </Link>
    </Tooltip>
  );
}
