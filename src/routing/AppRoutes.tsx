// Every route of the app (SPEC §2). Pages are loaded on demand.
import { Spin } from 'antd';
import { Suspense } from 'react';
import { lazyWithReload } from '../pwa/chunkReload.ts';
import { Navigate, Route, Routes } from 'react-router';
import { AppShell } from '../components/layout/AppShell.tsx';
import { ShellDataGate } from '../components/layout/ShellDataGate.tsx';
import { GuestOnly } from './GuestOnly.tsx';
import { moduleEntryPaths, type AppModule } from './appModules.ts';
import { pageAt } from './pageTable.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import { RequireAccess } from './RequireAccess.tsx';
import { RequireSession } from './RequireSession.tsx';
import { modelResourceRoutes } from './modelResourceRoutes.tsx';
import { BOARD_KINDS } from '../resources/boardKinds.ts';

const LoginPage = lazyWithReload(() => import('../pages/login/LoginPage.tsx'));
const AuthRedirectPage = lazyWithReload(() => import('../pages/AuthRedirectPage.tsx'));
const ApplicationsPage = lazyWithReload(() => import('../pages/ApplicationsPage.tsx'));
const ProfileHomePage = lazyWithReload(() => import('../pages/profile/ProfileHomePage.tsx'));
const ChangePasswordPage = lazyWithReload(() => import('../pages/profile/ChangePasswordPage.tsx'));
const DashboardPage = lazyWithReload(() => import('../pages/dashboard/DashboardPage.tsx'));
const TreeViewPage = lazyWithReload(() => import('../pages/dashboard/TreeViewPage.tsx'));
const StudioPage = lazyWithReload(() => import('../pages/studio/StudioPage.tsx'));
const BoardPage = lazyWithReload(() => import('../pages/boards/BoardPage.tsx'));
const BoardPrintPage = lazyWithReload(() => import('../pages/boards/BoardPrintPage.tsx'));
const NotFoundPage = lazyWithReload(() => import('../pages/NotFoundPage.tsx'));

/** Board print views: no navbar, no sidebar; the tenant is loaded (a web page component reads its trusted origins). */
function printView(kind: (typeof BOARD_KINDS)[number]) {
  return (
    <ShellDataGate>
      <Suspense fallback={<Spin className="page-spinner" />}>
        <BoardPrintPage key={kind.route} kind={kind} />
      </Suspense>
    </ShellDataGate>
  );
}

/** The routes of a feature module open to those the page table lets open the module's page. */
const moduleGuard = (module: AppModule) => <RequireAccess access={pageAt(moduleEntryPaths[module]).access} />;

const fullPageSpinner = (
  <div style={{ display: 'flex', minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}>
    <Spin size="large" />
  </div>
);

export function AppRoutes() {
  // the shell's own boundary keeps its navbar; this one catches the pages outside it and the shell itself
  return (
    <RouteErrorBoundary>
      <Suspense fallback={fullPageSpinner}>
        <Routes>
          <Route element={<GuestOnly />}>
            <Route path="/login" element={<LoginPage />} />
          </Route>
          <Route path="/auth-redirect" element={<AuthRedirectPage />} />

          <Route element={<RequireSession />}>
            {BOARD_KINDS.map((kind) => (
              <Route key={`${kind.route}-print`} element={moduleGuard(kind.module)}>
                <Route path={`${kind.route}/:id/print`} element={printView(kind)} />
              </Route>
            ))}

            <Route
              element={
                <ShellDataGate>
                  <AppShell />
                </ShellDataGate>
              }
            >
              <Route index element={<Navigate to="/applications" replace />} />
              <Route path="/applications" element={<ApplicationsPage />} />
              <Route path="/profile" element={<ProfileHomePage />} />
              <Route path="/profile/password" element={<RequireAccess access={pageAt('/profile/password').access}><ChangePasswordPage /></RequireAccess>} />
              {modelResourceRoutes()}

              <Route element={moduleGuard('factory-dashboard')}>
                {/* one page: selecting an entity changes the address without a navigation (SPEC §2) */}
                <Route path="/dashboard" element={<DashboardPage />} />
                <Route path="/dashboard/entity/:id" element={<DashboardPage />} />
                <Route path="/dashboard/entity/:id/detail" element={<DashboardPage />} />
                <Route path="/dashboard/tree-view/:id" element={<TreeViewPage />} />
                <Route path="/dashboard/*" element={<NotFoundPage />} />
              </Route>

              <Route element={moduleGuard('factory-studio')}>
                <Route path="/studio" element={<Navigate to="/studio/regions" replace />} />
                <Route path="/studio/regions" element={<StudioPage key="regions" kind="regions" />} />
                <Route path="/studio/zones" element={<StudioPage key="zones" kind="zones" />} />
                <Route path="/studio/devices" element={<StudioPage key="devices" kind="devices" />} />
                <Route path="/studio/*" element={<NotFoundPage />} />
              </Route>

              {/* a board kind's list, create and edit pages are its board resource's (modelResourceRoutes) */}
              {BOARD_KINDS.map((kind) => (
                <Route key={`${kind.route}-board`} element={moduleGuard(kind.module)}>
                  <Route path={`${kind.route}/:id`} element={<BoardPage key={kind.route} kind={kind} />} />
                </Route>
              ))}

              <Route element={moduleGuard('logs')}>
                <Route path="/logs/*" element={<Navigate to="/logs" replace />} />
              </Route>

              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
