// One table decides which pages a user may open and which the menus show: the operator of the
// demo (factory-dashboard and logs, no permissions) and an administrator with every module.
import { describe, expect, it } from 'vitest';
import { PAGES } from '../../../src/pageTable.tsx';
import { mayOpen, openablePages as openableIn, openableSettingsPages as settingsIn, pageAt as pageIn, type MenuPage } from '../../../src/routing/pages.tsx';
import { MODEL_RESOURCES } from '../../../src/resources/modelResources.ts';
import { MODULES } from '../../../src/schemas/modules.ts';
import type { TokenClaims } from '../../../src/session/tokenClaims.ts';

const claims = (modules: string[], permissions: string[]) => ({ modules, module_permissions: permissions } as unknown as TokenClaims);
const operator = claims(['factory-dashboard', 'logs'], []);
const admin = claims([...MODULES], ['watcher.*', 'scheduler.*', 'profile.*', 'kpi.*', 'entity.*', 'board.*', 'logs.*']);
const GROUPS = ['modules', 'studio', 'settings'];
const openablePages = (user: TokenClaims, filter?: (page: MenuPage) => boolean) => openableIn(PAGES, user, filter);
const openableSettingsPages = (user: TokenClaims) => settingsIn(PAGES, user);
const pageAt = (path: string) => pageIn(PAGES, path);
/** The side menu's entries as it groups them. */
const menu = (user: TokenClaims) => openablePages(user, (page) => page.menu !== undefined)
  .sort((a, b) => GROUPS.indexOf(a.menu!) - GROUPS.indexOf(b.menu!)).map((page) => `${page.menu} ${page.path}`);

describe('the page table', () => {
  it('lists every model resource and every studio kind', () => {
    for (const resource of MODEL_RESOURCES) expect(PAGES.some((page) => page.path === resource.route)).toBe(true);
    for (const kind of ['regions', 'zones', 'devices']) expect(PAGES.some((page) => page.path === `/studio/${kind}` && page.menu === 'studio'), kind).toBe(true);
  });

  it('shows the operator his two modules, his profile, his password and the watchers; no studio, no settings', () => {
    expect(menu(operator)).toEqual(['modules /dashboard', 'modules /logs', 'settings /profile', 'settings /profile/password', 'settings /watcher']);
    for (const path of ['/studio/kpi', '/studio/regions', '/profile/notifications', '/profile/kpi-presets']) expect(mayOpen(operator, pageAt(path).access), path).toBe(false);
    // every signed-in user changes their own password (OWASP ASVS V6.2); Settings stays the settings access's
    expect(mayOpen(operator, pageAt('/profile/password').access)).toBe(true);
    expect(openableSettingsPages(operator)).toEqual([]);
  });

  it('shows the administrator the studio with regions, zones and devices, and the settings', () => {
    expect(menu(admin)).toEqual([
      'modules /dashboard', 'modules /studio/regions', 'modules /performance-dashboard', 'modules /public-api-dashboard', 'modules /logs',
      'studio /studio/regions', 'studio /studio/zones', 'studio /studio/devices', 'studio /studio/scheduler', 'studio /studio/profiles', 'studio /studio/kpi',
      'settings /profile', 'settings /profile/password', 'settings /profile/notifications', 'settings /profile/kpi-presets', 'settings /watcher',
    ]);
    expect(openablePages(admin, (page) => !!page.profile).map((page) => page.path)).toEqual(['/profile', '/profile/password', '/profile/notifications', '/profile/kpi-presets']);
  });

  it('shows the API users only to those with the public-API dashboard and the whole of public-api.board.*', () => {
    const path = '/public-api-dashboard/api-users';
    const manager = claims(['public-api-dashboard'], ['public-api.board.*']);
    expect(menu(manager)).toContain(`settings ${path}`);
    expect(mayOpen(manager, pageAt(path).access)).toBe(true);
    for (const user of [operator, admin, claims(['public-api-dashboard'], ['public-api.board.create', 'public-api.board.edit']), claims(['factory-dashboard'], ['public-api.board.*'])]) {
      expect(mayOpen(user, pageAt(path).access)).toBe(false);
      expect(menu(user)).not.toContain(`settings ${path}`);
    }
  });

  it('offers the maintenance page to those whose token allows a maintenance mode, whatever else they hold', () => {
    const maintainer = { ...operator, maintenance_modes: ['notify-off'] } as TokenClaims;
    expect(menu(maintainer)).toEqual(['modules /dashboard', 'modules /logs', 'settings /profile', 'settings /profile/password', 'settings /watcher', 'settings /maintenance']);
    for (const user of [operator, admin, { ...admin, maintenance_modes: [] } as TokenClaims]) expect(mayOpen(user, pageAt('/maintenance').access)).toBe(false);
  });

  it('gives the user menu and the profile page their settings: the profile pages but /profile, the password first', () => {
    expect(openableSettingsPages(operator)).toEqual([]);
    expect(openableSettingsPages(admin).map((page) => page.path)).toEqual(['/profile/password', '/profile/notifications', '/profile/kpi-presets']);
  });
});
