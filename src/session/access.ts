// Module and permission rules (SPEC §6): a route or element that declares modules needs at
// least one of them; a permission such as `watcher.*` grants every `watcher.<action>`.
import { useMemo } from 'react';
import type { Grants } from '../schemas/model.ts';
import { modulesGranted, permissionGranted } from '../schemas/modules.ts';
import { decodeTokenClaims } from './tokenClaims.ts';
import type { TokenClaims } from './tokenClaims.ts';
import { useAccessToken } from './tokenStorage.ts';

export const hasAnyModule = modulesGranted;

export const hasPermission = (granted: readonly string[], required: string) => permissionGranted(granted, required);

/** SPEC §2/§6: the settings menu shows whenever the user has at least one permission. */
export function hasSettingsAccess(claims: TokenClaims): boolean {
  return claims.module_permissions.length > 0;
}

/** What the token grants, as the schemas' access rules ask (SPEC §6; maintenance modes from `maintenance_modes`). */
export const grantsOf = (claims: TokenClaims): Grants => ({ modules: claims.modules, permissions: claims.module_permissions, maintenanceModes: claims.maintenance_modes });

/** The claims of the current access token; re-computed when the token changes. */
export function useTokenClaims(): TokenClaims {
  const token = useAccessToken();
  return useMemo(() => decodeTokenClaims(token), [token]);
}
