import { describe, expect, it } from 'vitest';
import { hasAnyModule, hasPermission, hasSettingsAccess } from '../../../src/session/access.ts';
import { decodeTokenClaims } from '../../../src/session/tokenClaims.ts';

function tokenWith(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

describe('token claims', () => {
  it('reads modules, permissions, maintenance modes and languages', () => {
    const claims = decodeTokenClaims(
      tokenWith({ sub: 'u1', lang: 'sk', languages: ['en', 'sk'], modules: ['logs'], module_permissions: ['watcher.*'], maintenance_modes: ['lighting'] }),
    );
    expect(claims).toMatchObject({ sub: 'u1', lang: 'sk', languages: ['en', 'sk'], modules: ['logs'], module_permissions: ['watcher.*'], maintenance_modes: ['lighting'] });
  });

  it('reads non-ASCII claims', () => {
    expect(decodeTokenClaims(tokenWith({ lang: 'ko', modules: ['ü'] })).modules).toEqual(['ü']);
  });

  it('gives empty lists for a missing or broken token', () => {
    expect(decodeTokenClaims(null).modules).toEqual([]);
    expect(decodeTokenClaims('not-a-token').module_permissions).toEqual([]);
    expect(decodeTokenClaims('a.!!!.c').languages).toEqual([]);
  });
});

describe('modules and permissions', () => {
  it('needs one of the declared modules', () => {
    expect(hasAnyModule(['logs'], ['factory-studio'])).toBe(false);
    expect(hasAnyModule(['logs', 'factory-studio'], ['factory-studio'])).toBe(true);
    expect(hasAnyModule([], undefined)).toBe(true);
    expect(hasAnyModule([], [])).toBe(true);
  });

  it('lets a wildcard permission grant its actions', () => {
    expect(hasPermission(['watcher.*'], 'watcher.create')).toBe(true);
    expect(hasPermission(['watcher.*'], 'watcher.*')).toBe(true);
    expect(hasPermission(['performance.board.*'], 'performance.board.delete')).toBe(true);
    expect(hasPermission(['performance.board.edit'], 'performance.board.delete')).toBe(false);
    expect(hasPermission(['scheduler.*'], 'watcher.create')).toBe(false);
    expect(hasPermission(['dashboard.entity.manually_editable'], 'dashboard.entity.manually_editable')).toBe(true);
  });

  it('shows the settings with at least one permission', () => {
    const base = { languages: [], modules: ['logs'], maintenance_modes: [] };
    expect(hasSettingsAccess({ ...base, module_permissions: [] })).toBe(false);
    expect(hasSettingsAccess({ ...base, module_permissions: ['watcher.*'] })).toBe(true);
  });
});
