// The bell linking to /watcher, with the number of watchers in alert state: polled (SPEC §9) and
// live (the watchers' resource_changed events refetch it). It also shows each change of a
// watcher's alert (useWatcherAlertNotifications) and the user's in-app notifications
// (useLogNotifications).
import { BellOutlined } from '@ant-design/icons';
import { useList } from '@refinedev/core';
import { Badge, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLogNotifications } from './useLogNotifications.tsx';
import { useWatcherAlertNotifications, type WatcherAlertState } from './useWatcherAlertNotifications.ts';

export const WATCHER_POLL_MS = 30_000;

export function WatcherBell() {
  const { t } = useTranslation();
  const { query } = useList<WatcherAlertState>({
    resource: 'watcher',
    pagination: { mode: 'off' },
    errorNotification: false,
    queryOptions: { refetchInterval: WATCHER_POLL_MS },
    liveMode: 'auto',
  });
  useLogNotifications();
  useWatcherAlertNotifications(query.data?.data);
  const alertCount = (query.data?.data ?? []).filter((watcher) => watcher.alert === true).length;

  // the accessible name holds the count the badge shows (WCAG 2.5.3)
  const title = alertCount > 0 ? t('navbar.watchersInAlert', { count: alertCount }) : t('navbar.watchers');
  return (
    <Tooltip title={title}>
      <Link to="/watcher" data-testid="watcher-bell" aria-label={title} data-alert-count={alertCount}>
        {/* a plain count, not antd's rolling digits: mid-roll they show digits the name does not hold */}
        <Badge count={alertCount > 0 ? <span className="watcher-bell-count">{alertCount}</span> : 0} offset={[-4, 4]}>
          <Button type="text" tabIndex={-1} icon={<BellOutlined style={{ fontSize: 18 }} />} className="navbar-button" />
        </Badge>
      </Link>
    </Tooltip>
  );
}
