// Module and permission rules (SPEC §6): a route or element that declares modules needs at
// least one of them; a permission such as `watcher.*` grants every `watcher.<action>`.
import { useMemo } from 'react';
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

/** The claims of the current access token; re-computed when the token changes. */
export function useTokenClaims(): TokenClaims {
  const token = useAccessToken();
  return useMemo(() => decodeTokenClaims(token), [token]);
}
