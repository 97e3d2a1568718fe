// Who is calling: resolved from the access token, never from a request body.
import { permissionGranted } from '../../src/schemas/modules.ts';
import { forbidden } from '../errors.ts';

/**
 * A signed-in tenant user (a JWT; `kind` 'user' or left out), or an API user (an API token: then
 * `userId` is the API user's id, `sessionId` the token's, and only the public-API doors open).
 */
export interface Caller {
  tenantId: string;
  userId: string;
  sessionId: string;
  modules: string[];
  permissions: string[];
  /** The maintenance modes the user may start and end (token claim `maintenance_modes`); none for an API user. */
  maintenanceModes?: string[];
  kind?: 'user' | 'api';
}

export const isApiCaller = (caller: Caller | null | undefined) => caller?.kind === 'api';

export const hasPermission = (caller: Caller, permission: string) => permissionGranted(caller.permissions, permission);

export function requirePermission(caller: Caller, permission: string): void {
  if (!hasPermission(caller, permission)) throw forbidden(permission);
}

export function requireModule(caller: Caller, module: string): void {
  if (!caller.modules.includes(module)) throw forbidden(`the module ${module}`);
}
