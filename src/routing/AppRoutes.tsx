// Every route of the app (SPEC §2), drawn from the page table (src/pageTable.tsx): each entry
// where its layout puts it, behind its guard. Pages load on demand.
import { Spin } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { AppShell } from '../components/layout/AppShell.tsx';
import { ShellDataGate } from '../components/layout/ShellDataGate.tsx';
import { GuestOnly } from './GuestOnly.tsx';
import { usePages, type PageEntry } from './pages.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import { RequireAccess } from './RequireAccess.tsx';
import { RequireSession } from './RequireSession.tsx';

const fullPageSpinner = (
  <div style={{ display: 'flex', minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}>
    <Spin size="large" />
  </div>
);

/** What an entry's route shows: its page (a print view with the tenant loaded: a web page component reads its trusted origins) or its redirect, behind its guard. */
function elementOf(page: PageEntry): ReactNode {
  const Page = page.component;
  let shown: ReactNode = Page ? <Page /> : <Navigate to={page.redirect!} replace />;
  if (page.layout === 'print') shown = <ShellDataGate><Suspense fallback={<Spin className="page-spinner" />}>{shown}</Suspense></ShellDataGate>;
  return Object.keys(page.access).length ? <RequireAccess access={page.access}>{shown}</RequireAccess> : shown;
}

export function AppRoutes() {
  const pages = usePages();
  // a path's first entry that shows something (a module's menu entry may leave it to its page's)
  const routed = pages.filter((page, index) => (page.component || page.redirect)
    && pages.findIndex((other) => other.path === page.path && (other.component || other.redirect)) === index);
  const routesOf = (layout: NonNullable<PageEntry['layout']>) => routed.filter((page) => (page.layout ?? 'shell') === layout)
    .map((page) => <Route key={page.path} path={page.path} element={elementOf(page)} />);
  // the shell's own boundary keeps its navbar; this one catches the pages outside it and the shell itself
  return (
    <RouteErrorBoundary>
      <Suspense fallback={fullPageSpinner}>
        <Routes>
          <Route element={<GuestOnly />}>{routesOf('guest')}</Route>
          {routesOf('open')}
          <Route element={<RequireSession />}>
            {routesOf('print')}
            <Route element={<ShellDataGate><AppShell /></ShellDataGate>}>{routesOf('shell')}</Route>
          </Route>
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
