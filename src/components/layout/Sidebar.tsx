// The collapsible side menu: the user's modules and the profile and settings links.
import { BellOutlined, LockOutlined, NotificationOutlined, UserOutlined } from '@ant-design/icons';
import { Layout, Menu } from 'antd';
import type { MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { availableModules, moduleEntryPaths } from '../../routing/appModules.ts';
import { hasSettingsAccess, useTokenClaims } from '../../session/access.ts';
import { MODEL_RESOURCES } from '../../resources/modelResources.ts';
import { actionAllowed } from '../../schemas/model.ts';
import { moduleIcons } from '../moduleIcons.tsx';

function selectedKeyOf(pathname: string, keys: string[]): string[] {
  const match = keys
    .filter((key) => pathname === key || pathname.startsWith(`${key}/`) || (key === '/studio/regions' && pathname.startsWith('/studio')))
    .sort((a, b) => b.length - a.length)[0];
  return match ? [match] : [];
}

export function Sidebar({ collapsed, onNavigate }: { collapsed: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const claims = useTokenClaims();
  const modules = availableModules(claims.modules);

  const moduleItems = modules.map((module) => ({ key: moduleEntryPaths[module], icon: moduleIcons[module], label: t(`modules.${module}`) }));
  // the studio's generated pages the user may open
  const grants = { modules: claims.modules, permissions: claims.module_permissions };
  const studioItems = MODEL_RESOURCES
    .filter((resource) => resource.route.startsWith('/studio/') && actionAllowed(grants, resource.schema, 'read'))
    .map((resource) => ({ key: resource.route, label: t(resource.titleKey) }));
  const settingsItems = [
    { key: '/profile', icon: <UserOutlined />, label: t('routes.profile') },
    ...(hasSettingsAccess(claims)
      ? [
          { key: '/profile/password', icon: <LockOutlined />, label: t('routes.changePassword') },
          { key: '/profile/notifications', icon: <NotificationOutlined />, label: t('routes.notifications') },
        ]
      : []),
    { key: '/watcher', icon: <BellOutlined />, label: t('routes.watcher') },
  ];
  const items: MenuProps['items'] = [
    ...(moduleItems.length > 0 ? [{ type: 'group' as const, key: 'modules', label: t('sidebar.modules'), children: moduleItems }] : []),
    ...(studioItems.length > 0 ? [{ type: 'group' as const, key: 'studio', label: t('modules.factory-studio'), children: studioItems }] : []),
    { type: 'group', key: 'settings', label: t('sidebar.settings'), children: settingsItems },
  ];
  const keys = [...moduleItems, ...studioItems, ...settingsItems].map((item) => item.key);

  return (
    <Layout.Sider
      collapsible
      collapsed={collapsed}
      trigger={null}
      width={240}
      collapsedWidth={0}
      theme="light"
      className="sidebar"
      data-testid="sidebar"
      data-collapsed={String(collapsed)}
    >
      <Menu
        mode="inline"
        items={items}
        selectedKeys={selectedKeyOf(pathname, keys)}
        onClick={({ key }) => {
          navigate(key);
          onNavigate();
        }}
      />
    </Layout.Sider>
  );
}
