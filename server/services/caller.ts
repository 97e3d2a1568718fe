// Who is calling: resolved from the access token, never from a request body.
import { permissionGranted } from '../../src/schemas/modules.ts';
import { forbidden } from '../errors.ts';

export interface Caller {
  tenantId: string;
  userId: string;
  sessionId: string;
  modules: string[];
  permissions: string[];
}

export const hasPermission = (caller: Caller, permission: string) => permissionGranted(caller.permissions, permission);

export function requirePermission(caller: Caller, permission: string): void {
  if (!hasPermission(caller, permission)) throw forbidden(permission);
}

export function requireModule(caller: Caller, module: string): void {
  if (!caller.modules.includes(module)) throw forbidden(`the module ${module}`);
}
