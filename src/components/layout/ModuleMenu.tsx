// The navbar dropdown of the feature modules the user has.
import { AppstoreOutlined, DownOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { availableModules, moduleEntryPaths } from '../../routing/appModules.ts';
import { useTokenClaims } from '../../session/access.ts';
import { moduleIcons } from '../moduleIcons.tsx';

export function ModuleMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const modules = availableModules(useTokenClaims().modules);
  if (modules.length === 0) return null;

  const items: MenuProps['items'] = modules.map((module) => ({
    key: module,
    icon: moduleIcons[module],
    label: <span data-testid={`module-menu-${module}`}>{t(`modules.${module}`)}</span>,
  }));

  return (
    <Dropdown
      trigger={['click']}
      menu={{ items, onClick: ({ key }) => navigate(moduleEntryPaths[key as keyof typeof moduleEntryPaths]) }}
    >
      <Button type="text" icon={<AppstoreOutlined />} data-testid="module-menu" className="navbar-button">
        <span className="navbar-label">{t('navbar.applications')}</span>
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}
