// The live connection's state in the navbar: a coloured dot and its name.
import { Badge, Tooltip } from 'antd';
import type { BadgeProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLiveStatus } from '../../providers/liveConnection.ts';
import type { LiveStatus } from '../../providers/liveConnection.ts';

const dotStatus: Record<LiveStatus, BadgeProps['status']> = {
  connecting: 'processing',
  connected: 'success',
  disconnected: 'default',
  error: 'error',
};

export function WebsocketStatus() {
  const { t } = useTranslation();
  const status = useLiveStatus();
  const text = t(`websocket.${status}`);
  return (
    <Tooltip title={`${t('navbar.websocketStatus')}: ${text}`}>
      <span data-testid="ws-status" data-status={status} role="status" aria-label={`${t('navbar.websocketStatus')}: ${text}`} className="ws-status">
        <Badge status={dotStatus[status]} />
        <span className="navbar-label">{text}</span>
      </span>
    </Tooltip>
  );
}
