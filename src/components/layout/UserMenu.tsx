// The user menu: organisation and e-mail, the maintenance modes in force (leading to the maintenance
// page for those who may open it), Settings (when the user has settings access: the first settings page they may open; else
// Change password, which every signed-in user may) and Log out.
import { LockOutlined, LogoutOutlined, SettingOutlined, ToolOutlined, UserOutlined } from '@ant-design/icons';
import { useGetIdentity, useLogout } from '@refinedev/core';
import { Button, Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { windowText } from '../../maintenance/maintenanceText.ts';
import { useActiveMaintenance } from '../../maintenance/useActiveMaintenance.ts';
import { useMaintenancePage } from '../../maintenance/useMaintenancePage.ts';
import type { CurrentUser } from '../../providers/authProvider.ts';
import { useOpenableSettingsPages } from '../../routing/pages.tsx';
import { useShellData } from './shellData.ts';
import { useTenantTimeZone } from './tenantTimeZone.ts';

export function UserMenu() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const timeZone = useTenantTimeZone();
  const { active } = useActiveMaintenance();
  const maintenancePage = useMaintenancePage();
  const { tenant } = useShellData();
  const { data: user } = useGetIdentity<CurrentUser>();
  const { mutate: logout } = useLogout();
  const [settingsPage] = useOpenableSettingsPages();
  const email = user?.email ?? '';

  const items: MenuProps['items'] = [
    { key: 'tenant', disabled: true, label: <span data-testid="user-menu-tenant">{t('navbar.tenant', { name: tenant.name })}</span> },
    { key: 'user', disabled: true, label: <span data-testid="user-menu-email">{t('navbar.user', { email })}</span> },
    { type: 'divider' },
    ...(active.length
      ? [
        ...active.map((window) => ({
          key: `maintenance-${window.id}`, icon: <ToolOutlined />, disabled: !maintenancePage,
          label: <span data-testid="user-menu-maintenance">{windowText(t, window, i18n.language, timeZone)}</span>,
        })),
        { type: 'divider' as const },
      ]
      : []),
    ...(settingsPage
      ? [{ key: 'settings', icon: <SettingOutlined />, label: <span data-testid="user-menu-settings">{t('navbar.settings')}</span> }]
      : [{ key: 'password', icon: <LockOutlined />, label: <span data-testid="user-menu-password">{t('routes.changePassword')}</span> }]),
    { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="logout">{t('navbar.logout')}</span> },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'settings' && settingsPage) navigate(settingsPage.path);
    if (key === 'password') navigate('/profile/password');
    if (key === 'logout') logout();
    if (key.startsWith('maintenance-') && maintenancePage) navigate(maintenancePage);
  };

  return (
    <Dropdown trigger={['click']} menu={{ items, onClick }}>
      <Button type="text" icon={<UserOutlined />} data-testid="user-menu" aria-label={`${t('navbar.userMenu')}: ${email}`} className="navbar-button">
        <span className="navbar-label">{email}</span>
      </Button>
    </Dropdown>
  );
}
