// The banner every signed-in user sees while a maintenance window of the tenant is in force: each
// window's mode, name and end, what it means, and (for those who may open it) the maintenance page (read-only: changes are not saved; notify-off:
// nothing is sent; device maintenance: its devices are left out of alarms and KPIs).
import { ToolOutlined } from '@ant-design/icons';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTenantTimeZone } from '../components/layout/tenantTimeZone.ts';
import { useMaintenancePage } from './useMaintenancePage.ts';
import { windowText } from './maintenanceText.ts';
import { useActiveMaintenance } from './useActiveMaintenance.ts';

export function MaintenanceBanner() {
  const { t, i18n } = useTranslation();
  const timeZone = useTenantTimeZone();
  const { active } = useActiveMaintenance();
  const page = useMaintenancePage();
  if (!active.length) return null;
  return (
    <Alert
      className="maintenance-banner"
      data-testid="maintenance-banner"
      type="warning"
      banner
      icon={<ToolOutlined />}
      showIcon
      role="status"
      message={(
        <ul className="maintenance-banner-list">
          {active.map((window) => (
            <li key={window.id} data-testid="maintenance-banner-item" data-mode={window.mode}>
              <strong>{windowText(t, window, i18n.language, timeZone)}</strong> {t(`maintenance.effect.${window.mode}`)}
            </li>
          ))}
        </ul>
      )}
      action={page && <Link to={page}>{t('maintenance.details')}</Link>}
    />
  );
}
