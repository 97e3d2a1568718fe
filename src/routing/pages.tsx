// What the page table (src/pageTable.tsx, ant-design-pro's config/routes.ts) is made of, and how
// it is read: each entry's path, what it shows, who may open it, its title and icon and where the
// menus show it. App.tsx hands the table over (PagesContext); the router, its guards, the side
// menu, the profile menu, the navbar's module menu and the application tiles read it here.
import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { ModelResource } from '../resources/defineResource.ts';
import { actionAllowed, type Action, type ModelSchema } from '../schemas/model.ts';
import { grantsOf, hasAnyModule, hasSettingsAccess, useTokenClaims } from '../session/access.ts';
import type { TokenClaims } from '../session/tokenClaims.ts';
import type { AppModule } from './appModules.ts';

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
  /** The menus' and the tiles' title (pages a menu shows). */
  titleKey?: string;
  access: PageAccess;
  /** What the route shows; none: a menu entry whose route another entry gives (a module's first page). */
  component?: ComponentType;
  /** Or where it sends the user. */
  redirect?: string;
  /** Where it is drawn: in the shell (default), alone once signed in (a board's print view), on the sign-in side (guests only), or to anyone. */
  layout?: 'shell' | 'print' | 'guest' | 'open';
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

/** The page table, as App.tsx hands it over. */
export const PagesContext = createContext<readonly PageEntry[]>([]);
export const usePages = () => useContext(PagesContext);

/** The entry of `path` (the first: a module's entry before its page's). */
export const pageAt = (pages: readonly PageEntry[], path: string): PageEntry => {
  const page = pages.find((entry) => entry.path === path);
  if (!page) throw new Error(`No page ${path} in the page table`);
  return page;
};

/** A page a menu may show: it has a title. */
export type MenuPage = PageEntry & { titleKey: string };

/** The pages this user may open that a menu shows (they have a title), in table order. */
export const openablePages = (pages: readonly PageEntry[], claims: TokenClaims, filter: (page: MenuPage) => boolean = () => true): MenuPage[] =>
  pages.filter((page): page is MenuPage => page.titleKey !== undefined && filter(page as MenuPage) && mayOpen(claims, page.access));

/**
 * The profile's settings pages (all its pages but /profile itself) this user may open, for a user
 * with Settings (SPEC §4: the settings access rule); none for the others. The user menu's
 * Settings leads to the first.
 */
export const openableSettingsPages = (pages: readonly PageEntry[], claims: TokenClaims) =>
  (hasSettingsAccess(claims) ? openablePages(pages, claims, (page) => !!page.profile && page.path !== '/profile') : []);

/** openablePages for the signed-in user, from the table handed over. */
export function useOpenablePages(filter?: (page: MenuPage) => boolean): MenuPage[] {
  return openablePages(usePages(), useTokenClaims(), filter);
}

/** openableSettingsPages for the signed-in user. */
export function useOpenableSettingsPages(): MenuPage[] {
  return openableSettingsPages(usePages(), useTokenClaims());
}
