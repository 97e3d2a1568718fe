// refine AccessControlProvider (SPEC §6): a model resource answers from its schema's x-access rule
// for the action and the access token's modules and permissions — the same rule the server
// enforces; other resources from their `meta.modules` and `meta.permission`.
import type { AccessControlProvider } from '@refinedev/core';
import { modelResourceOf } from '../resources/modelResources.ts';
import { actionAllowed, type Action } from '../schemas/model.ts';
import { grantsOf, hasAnyModule, hasPermission } from '../session/access.ts';
import { currentTokenClaims } from '../session/tokenClaims.ts';

/** refine's action names → the model's. */
const MODEL_ACTIONS: Record<string, Action> = { list: 'read', show: 'read', create: 'create', clone: 'create', edit: 'update', delete: 'delete' };

export const accessControlProvider: AccessControlProvider = {
  async can({ resource, action, params }) {
    const meta = params?.resource?.meta as { modules?: string[]; permission?: string } | undefined;
    const claims = currentTokenClaims();
    // a model resource, named (useCan) or passed whole (buttons)
    const model = modelResourceOf(resource ?? params?.resource?.name ?? '');
    if (model) {
      const grants = grantsOf(claims);
      return actionAllowed(grants, model.schema, MODEL_ACTIONS[action] ?? 'read') ? { can: true } : { can: false, reason: 'permission' };
    }
    if (!hasAnyModule(claims.modules, meta?.modules)) return { can: false, reason: 'module' };
    if (meta?.permission && !hasPermission(claims.module_permissions, meta.permission)) return { can: false, reason: 'permission' };
    return { can: true };
  },
};
