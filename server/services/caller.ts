// Who is calling: resolved from the access token, never from a request body.
import { forbidden } from '../errors.ts';

export interface Caller {
  tenantId: string;
  userId: string;
  sessionId: string;
  modules: string[];
  permissions: string[];
}

export const MODULES = ['factory-dashboard', 'factory-studio', 'logs', 'performance-dashboard', 'public-api-dashboard'] as const;

/** `watcher.*` grants `watcher.edit`; `performance.board.*` grants `performance.board.create`. */
export function hasPermission(caller: Caller, permission: string): boolean {
  return caller.permissions.some((held) => held === permission
    || (held.endsWith('.*') && permission.startsWith(held.slice(0, -1))));
}

export function requirePermission(caller: Caller, permission: string): void {
  if (!hasPermission(caller, permission)) throw forbidden();
}

export function requireModule(caller: Caller, module: string): void {
  if (!caller.modules.includes(module)) throw forbidden();
}
