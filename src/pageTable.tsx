// The app's pages, one entry each (ant-design-pro's config/routes.ts): the path, what it shows,
// who may open it, its title and icon and where the menus show it (src/routing/pages.tsx says
// what an entry holds). Pages load on demand. App.tsx hands the table to the router and the menus;
// a model resource is in it from its defineResource line.
import { BellOutlined, LockOutlined, NotificationOutlined, UserOutlined } from '@ant-design/icons';
import type { ComponentType, ReactNode } from 'react';
import { moduleIcons } from './components/moduleIcons.tsx';
import { ProfileLayout } from './pages/profile/ProfileLayout.tsx';
import { lazyWithReload } from './pwa/chunkReload.ts';
import { BOARD_KINDS, type BoardKind } from './resources/boardKinds.ts';
import type { ModelResource } from './resources/defineResource.ts';
import { MODEL_RESOURCES } from './resources/modelResources.ts';
import { moduleEntryPaths } from './routing/appModules.ts';
import { resourceAccess, STUDIO_KINDS, type PageEntry } from './routing/pages.tsx';
import { MODULES } from './schemas/modules.ts';

const LoginPage = lazyWithReload(() => import('./pages/login/LoginPage.tsx'));
const AuthRedirectPage = lazyWithReload(() => import('./pages/AuthRedirectPage.tsx'));
const ApplicationsPage = lazyWithReload(() => import('./pages/ApplicationsPage.tsx'));
const ProfileHomePage = lazyWithReload(() => import('./pages/profile/ProfileHomePage.tsx'));
const ChangePasswordPage = lazyWithReload(() => import('./pages/profile/ChangePasswordPage.tsx'));
const DashboardPage = lazyWithReload(() => import('./pages/dashboard/DashboardPage.tsx'));
const TreeViewPage = lazyWithReload(() => import('./pages/dashboard/TreeViewPage.tsx'));
const StudioPage = lazyWithReload(() => import('./pages/studio/StudioPage.tsx'));
const BoardPage = lazyWithReload(() => import('./pages/boards/BoardPage.tsx'));
const BoardPrintPage = lazyWithReload(() => import('./pages/boards/BoardPrintPage.tsx'));
const NotFoundPage = lazyWithReload(() => import('./pages/NotFoundPage.tsx'));
const ResourceListPage = lazyWithReload(() => import('./pages/resources/ResourceListPage.tsx'));
const ResourceFormPage = lazyWithReload(() => import('./pages/resources/ResourceFormPage.tsx'));

/** Models with pages of their own: the one that lists, creates and edits (`ownPage`: API users), or a create/edit page (the KPI builder, the profile editor). */
const RESOURCE_PAGES: Record<string, { own?: ComponentType<{ resource: ModelResource }>; form?: ComponentType<{ resource: ModelResource; action: 'create' | 'edit' }> }> = {
  api_user: { own: lazyWithReload(() => import('./pages/apiUsers/ApiUsersPage.tsx')) },
  kpi: { form: lazyWithReload(() => import('./pages/kpi/KpiBuilderPage.tsx')) },
  profile: { form: lazyWithReload(() => import('./pages/lighting/ProfileEditorPage.tsx')) },
};

/** A component showing `Page` with these props: each entry its own, so that another entry draws its page afresh. */
function showing<P extends object>(Page: ComponentType<P>, props: P, frame?: (page: ReactNode) => ReactNode): ComponentType {
  return function EntryPage() {
    const page = <Page {...props} />;
    return frame ? frame(page) : page;
  };
}

const RESOURCE_ICONS: Record<string, ReactNode> = { notification: <NotificationOutlined />, watcher: <BellOutlined /> };
const moduleStarts = new Set(Object.values(moduleEntryPaths));
/** Pages under /profile keep the profile's own menu. */
const framedFor = (resource: ModelResource) => (resource.route.startsWith('/profile/') ? (page: ReactNode) => <ProfileLayout>{page}</ProfileLayout> : undefined);

/** A model resource's list page and its place in the side menu: the studio's, the settings', or none where a module's entry leads to it (logs). */
function resourcePage(resource: ModelResource): PageEntry {
  const menu = resource.route.startsWith('/studio/') ? 'studio' : moduleStarts.has(resource.route) ? undefined : 'settings';
  const own = resource.ownPage && RESOURCE_PAGES[resource.name]?.own;
  if (resource.ownPage && !own) throw new Error(`No page of its own for ${resource.name}`);
  return {
    path: resource.route, titleKey: resource.titleKey, access: resourceAccess(resource, 'read'), menu,
    profile: resource.route.startsWith('/profile/'), icon: RESOURCE_ICONS[resource.name],
    component: own ? showing(own, { resource }) : showing(ResourceListPage, { resource }, framedFor(resource)),
  };
}

/** A model resource's create and edit pages (its own form page, or the generated one). */
function resourceFormPages(resource: ModelResource): PageEntry[] {
  if (resource.ownPage) return [];
  const Form = RESOURCE_PAGES[resource.name]?.form ?? ResourceFormPage;
  return (['create', 'edit'] as const).map((action) => ({
    path: action === 'create' ? `${resource.route}/create` : `${resource.route}/edit/:id`,
    access: resourceAccess(resource, action === 'create' ? 'create' : 'update'),
    component: showing(Form, { resource, action }, framedFor(resource)),
  }));
}

/** A board kind's board and its print view. */
const boardPages = (kind: BoardKind): PageEntry[] => [
  { path: `${kind.route}/:id`, access: { modules: [kind.module] }, component: showing(BoardPage, { kind }) },
  { path: `${kind.route}/:id/print`, access: { modules: [kind.module] }, layout: 'print', component: showing(BoardPrintPage, { kind }) },
];

const withPages = MODEL_RESOURCES.filter((resource) => resource.pages !== false);
const dashboard = { modules: ['factory-dashboard'] };
const studio = { modules: ['factory-studio'] };

export const PAGES: readonly PageEntry[] = [
  // the menus' pages, in the menus' order
  ...MODULES.map((module): PageEntry => ({
    path: moduleEntryPaths[module], titleKey: `modules.${module}`, access: { modules: [module] }, menu: 'modules', module, icon: moduleIcons[module],
    // one page: selecting an entity changes the address without a navigation (SPEC §2)
    component: module === 'factory-dashboard' ? DashboardPage : undefined,
  })),
  ...STUDIO_KINDS.map((kind): PageEntry => ({ path: `/studio/${kind}`, titleKey: `routes.${kind}`, access: studio, menu: 'studio', component: showing(StudioPage, { kind }) })),
  { path: '/profile', titleKey: 'routes.profile', access: {}, menu: 'settings', profile: true, icon: <UserOutlined />, component: ProfileHomePage },
  // every signed-in user changes their own password (OWASP ASVS V6.2), from the user menu when Settings is not theirs
  { path: '/profile/password', titleKey: 'routes.changePassword', access: {}, menu: 'settings', profile: true, icon: <LockOutlined />, component: ChangePasswordPage },
  ...withPages.map(resourcePage).sort((a, b) => Number(!!b.profile) - Number(!!a.profile)), // the profile's pages first
  // the other routes
  { path: '/login', access: {}, layout: 'guest', component: LoginPage },
  { path: '/auth-redirect', access: {}, layout: 'open', component: AuthRedirectPage },
  { path: '/', access: {}, redirect: '/applications' },
  { path: '/applications', access: {}, component: ApplicationsPage },
  ...withPages.flatMap(resourceFormPages),
  { path: '/dashboard/entity/:id', access: dashboard, component: DashboardPage },
  { path: '/dashboard/entity/:id/detail', access: dashboard, component: DashboardPage },
  { path: '/dashboard/tree-view/:id', access: dashboard, component: TreeViewPage },
  { path: '/dashboard/*', access: dashboard, component: NotFoundPage },
  { path: '/studio', access: studio, redirect: '/studio/regions' },
  { path: '/studio/*', access: studio, component: NotFoundPage },
  ...BOARD_KINDS.flatMap(boardPages),
  { path: '/logs/*', access: { modules: ['logs'] }, redirect: '/logs' },
  { path: '*', access: {}, component: NotFoundPage },
];
