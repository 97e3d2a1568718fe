// The top bar: sidebar toggle, logo, module menu; live status, helpdesk, watchers, language
// and user menu on the right.
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentBranding } from '../../branding/currentBranding.ts';
import { HelpdeskMenu } from './HelpdeskMenu.tsx';
import { LanguageSelect } from './LanguageSelect.tsx';
import { ModuleMenu } from './ModuleMenu.tsx';
import { UserMenu } from './UserMenu.tsx';
import { WatcherBell } from './WatcherBell.tsx';
import { WebsocketStatus } from './WebsocketStatus.tsx';

interface NavbarProps {
  sidebarCollapsed: boolean;
  onToggleSidebar: () => void;
}

export function Navbar({ sidebarCollapsed, onToggleSidebar }: NavbarProps) {
  const { t } = useTranslation();
  return (
    <Layout.Header className="navbar" data-testid="navbar">
      <div className="navbar-side">
        <Button
          type="text"
          icon={sidebarCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggleSidebar}
          data-testid="sidebar-toggle"
          aria-label={sidebarCollapsed ? t('sidebar.expand') : t('sidebar.collapse')}
          aria-expanded={!sidebarCollapsed}
          className="navbar-button"
        />
        <Link to="/applications" data-testid="logo" className="navbar-logo" aria-label={currentBranding.productTitle}>
          <img src={currentBranding.logoUrl} alt="" width={28} height={28} />
          <span className="navbar-product">{currentBranding.productTitle}</span>
        </Link>
        <ModuleMenu />
      </div>
      <div className="navbar-side">
        <WebsocketStatus />
        <HelpdeskMenu />
        <WatcherBell />
        <LanguageSelect />
        <UserMenu />
      </div>
    </Layout.Header>
  );
}
