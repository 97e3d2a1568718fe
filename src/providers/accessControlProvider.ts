// refine AccessControlProvider: a resource's `meta.modules` and `meta.permission` are checked
// against the access token's modules and permissions (SPEC §6).
import type { AccessControlProvider } from '@refinedev/core';
import { hasAnyModule, hasPermission } from '../session/access.ts';
import { currentTokenClaims } from '../session/tokenClaims.ts';

export const accessControlProvider: AccessControlProvider = {
  async can({ params }) {
    const meta = params?.resource?.meta as { modules?: string[]; permission?: string } | undefined;
    const claims = currentTokenClaims();
    if (!hasAnyModule(claims.modules, meta?.modules)) return { can: false, reason: 'module' };
    if (meta?.permission && !hasPermission(claims.module_permissions, meta.permission)) return { can: false, reason: 'permission' };
    return { can: true };
  },
};
