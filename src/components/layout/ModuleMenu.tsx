// The navbar dropdown of the feature modules the user may open (the page table).
import { AppstoreOutlined, DownOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOpenablePages } from '../../routing/pages.tsx';

export function ModuleMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const modules = useOpenablePages((page) => !!page.module);
  if (modules.length === 0) return null;

  const items: MenuProps['items'] = modules.map(({ module, path, icon, titleKey }) => ({
    key: path,
    icon,
    label: <span data-testid={`module-menu-${module}`}>{t(titleKey)}</span>,
  }));

  return (
    <Dropdown
      trigger={['click']}
      menu={{ items, onClick: ({ key }) => navigate(key) }}
    >
      <Button type="text" icon={<AppstoreOutlined />} data-testid="module-menu" className="navbar-button">
        <span className="navbar-label">{t('navbar.applications')}</span>
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}
