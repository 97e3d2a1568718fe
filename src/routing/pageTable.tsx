// The one table of the app's pages that a menu or a guard knows (ant-design-pro's routes + access):
// each page's path, title, who may open it and where the menus show it. The router's guards, the
// side menu, the profile menu, the navbar's module menu and the application tiles all read it; a
// model resource is in it from its defineResource line.
import { BellOutlined, LockOutlined, NotificationOutlined, UserOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { moduleIcons } from '../components/moduleIcons.tsx';
import type { ModelResource } from '../resources/defineResource.ts';
import { MODEL_RESOURCES } from '../resources/modelResources.ts';
import { actionAllowed, type Action, type ModelSchema } from '../schemas/model.ts';
import { MODULES } from '../schemas/modules.ts';
import { grantsOf, hasAnyModule, hasSettingsAccess } from '../session/access.ts';
import type { TokenClaims } from '../session/tokenClaims.ts';
import { moduleEntryPaths, type AppModule } from './appModules.ts';

/** Who may open a page: every condition given must hold. */
export interface PageAccess {
  /** At least one of these modules. */
  modules?: readonly string[];
  /** Users with settings (at least one permission). */
  settings?: boolean;
  /** The model's access rule for the action. */
  model?: ModelSchema;
  action?: Action;
}

export interface PageEntry {
  path: string;
  titleKey: string;
  access: PageAccess;
  /** The side menu's group; none: not in the side menu. */
  menu?: 'modules' | 'studio' | 'settings';
  /** Also in the profile pages' own menu. */
  profile?: boolean;
  /** The feature module this page starts (its tile and navbar entry). */
  module?: AppModule;
  icon?: ReactNode;
}

export function mayOpen(claims: TokenClaims, access: PageAccess): boolean {
  if (access.modules && !hasAnyModule(claims.modules, access.modules)) return false;
  if (access.settings && !hasSettingsAccess(claims)) return false;
  if (access.model && !actionAllowed(grantsOf(claims), access.model, access.action ?? 'read')) return false;
  return true;
}

/** Who may do `action` on a model resource's pages (reading them: its list page's action). */
export const resourceAccess = (resource: ModelResource, action: Action): PageAccess =>
  ({ modules: resource.modules, settings: resource.settings, model: resource.schema, action: action === 'read' ? resource.listPageAction ?? 'read' : action });

/** The studio's map pages, one per kind of entity. */
export const STUDIO_KINDS = ['regions', 'zones', 'devices'] as const;

const RESOURCE_ICONS: Record<string, ReactNode> = { notification: <NotificationOutlined />, watcher: <BellOutlined /> };
const moduleStarts = new Set(Object.values(moduleEntryPaths));

/** A model resource's place in the side menu: the studio's, the settings', or none where a module's entry leads to it (logs). */
function resourcePage(resource: ModelResource): PageEntry {
  const menu = resource.route.startsWith('/studio/') ? 'studio' : moduleStarts.has(resource.route) ? undefined : 'settings';
  return {
    path: resource.route, titleKey: resource.titleKey, access: resourceAccess(resource, 'read'), menu,
    profile: resource.route.startsWith('/profile/'), icon: RESOURCE_ICONS[resource.name],
  };
}

export const PAGES: readonly PageEntry[] = [
  ...MODULES.map((module): PageEntry => ({
    path: moduleEntryPaths[module], titleKey: `modules.${module}`, access: { modules: [module] }, menu: 'modules', module, icon: moduleIcons[module],
  })),
  ...STUDIO_KINDS.map((kind): PageEntry => ({ path: `/studio/${kind}`, titleKey: `routes.${kind}`, access: { modules: ['factory-studio'] }, menu: 'studio' })),
  { path: '/profile', titleKey: 'routes.profile', access: {}, menu: 'settings', profile: true, icon: <UserOutlined /> },
  // every signed-in user changes their own password (OWASP ASVS V6.2), from the user menu when Settings is not theirs
  { path: '/profile/password', titleKey: 'routes.changePassword', access: {}, menu: 'settings', profile: true, icon: <LockOutlined /> },
  ...MODEL_RESOURCES.filter((resource) => resource.pages !== false).map(resourcePage).sort((a, b) => Number(!!b.profile) - Number(!!a.profile)), // the profile's pages first
];

export const pageAt = (path: string): PageEntry => {
  const page = PAGES.find((entry) => entry.path === path);
  if (!page) throw new Error(`No page ${path} in the page table`);
  return page;
};

/** The pages this user may open, in table order. */
export const openablePages = (claims: TokenClaims, filter: (page: PageEntry) => boolean = () => true) =>
  PAGES.filter((page) => filter(page) && mayOpen(claims, page.access));

/**
 * The profile's settings pages (all its pages but /profile itself) this user may open, for a user
 * with Settings (SPEC §4: the settings access rule); none for the others. The user menu's
 * Settings leads to the first.
 */
export const openableSettingsPages = (claims: TokenClaims) =>
  (hasSettingsAccess(claims) ? openablePages(claims, (page) => !!page.profile && page.path !== '/profile') : []);
