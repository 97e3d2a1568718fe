// The collapsible side menu: the pages of the page table (src/routing/pages.tsx) this user may
// open, in its groups: the modules, the studio and the settings.
import { Layout, Menu } from 'antd';
import type { MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useOpenablePages, type MenuPage } from '../../routing/pages.tsx';

type MenuGroup = NonNullable<MenuPage['menu']>;
const GROUP_TITLES: Record<MenuGroup, string> = { modules: 'sidebar.modules', studio: 'modules.factory-studio', settings: 'sidebar.settings' };

/** A menu item's key: a page may be in two groups (the studio's entry and its first page). */
const keyOf = (page: MenuPage) => `${page.menu}:${page.path}`;

/** The deepest page the address is in; a module's entry stands for every address under its first segment. */
function selectedKeyOf(pathname: string, pages: MenuPage[]): string[] {
  const under = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);
  const page = pages.filter((entry) => entry.menu !== 'modules' && under(entry.path)).sort((a, b) => b.path.length - a.path.length)[0]
    ?? pages.find((entry) => entry.menu === 'modules' && under(`/${entry.path.split('/')[1]}`));
  return page ? [keyOf(page)] : [];
}

export function Sidebar({ collapsed, onNavigate }: { collapsed: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pages = useOpenablePages((page) => page.menu !== undefined);
  const items: MenuProps['items'] = (Object.keys(GROUP_TITLES) as MenuGroup[])
    .map((group) => ({ group, children: pages.filter((page) => page.menu === group) }))
    .filter(({ children }) => children.length > 0)
    .map(({ group, children }) => ({
      type: 'group' as const, key: group, label: t(GROUP_TITLES[group]),
      children: children.map((page) => ({ key: keyOf(page), icon: page.icon, label: t(page.titleKey) })),
    }));

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
        selectedKeys={selectedKeyOf(pathname, pages)}
        onClick={({ key }) => {
          navigate(key.slice(key.indexOf(':') + 1));
          onNavigate();
        }}
      />
    </Layout.Sider>
  );
}
