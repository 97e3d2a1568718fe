// The signed-in layout: navbar, sidebar and the page. Opens the live connection; after a
// reconnection every query on the page is read again (what changed meanwhile was never sent). The
// server's build is followed over it (a new one: the update notice, src/pwa/). A maintenance window
// in force shows its banner under the navbar.
import { Layout, Spin } from 'antd';
import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { liveConnection } from '../../providers/liveConnection.ts';
import { queryClient } from '../../providers/queryClient.ts';
import { MaintenanceBanner } from '../../maintenance/MaintenanceBanner.tsx';
import { useWebAppBuild } from '../../pwa/useWebAppBuild.ts';
import { Navbar } from './Navbar.tsx';
import { Sidebar } from './Sidebar.tsx';
import { useSidebarState } from './useSidebarState.ts';
import './shell.css';
import { RouteErrorBoundary } from '../../routing/RouteErrorBoundary.tsx';

export function AppShell() {
  const { collapsed, toggle, closeOnNarrowWindow } = useSidebarState();
  useEffect(() => {
    liveConnection.open();
    return liveConnection.onReconnected(() => void queryClient.invalidateQueries());
  }, []);
  useWebAppBuild();

  return (
    <Layout className="app-shell">
      <Navbar sidebarCollapsed={collapsed} onToggleSidebar={toggle} />
      <MaintenanceBanner />
      <Layout>
        <Sidebar collapsed={collapsed} onNavigate={closeOnNarrowWindow} />
        <Layout.Content className="app-content">
          <RouteErrorBoundary>
            <Suspense fallback={<Spin className="page-spinner" />}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
