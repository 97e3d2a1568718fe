// Feature modules and the permission rule (SPEC §6), shared by the server and the web app.

/** The modules a token may list, in the order menus show them. */
export const MODULES = ['factory-dashboard', 'factory-studio', 'performance-dashboard', 'public-api-dashboard', 'logs'] as const;
export type Module = (typeof MODULES)[number];

/** The modules whose screens show KPI charts (a user's KPI presets are kept per one of them). */
export const DASHBOARD_MODULES = ['factory-dashboard', 'performance-dashboard', 'public-api-dashboard'] as const;

/** Whether held permissions grant `required`: exactly, or through a wildcard (`watcher.*` grants `watcher.edit` and `watcher`). */
export function permissionGranted(held: readonly string[], required: string): boolean {
  return held.some((permission) => {
    if (permission === required) return true;
    if (!permission.endsWith('.*')) return false;
    return required.startsWith(permission.slice(0, -1)) || required === permission.slice(0, -2);
  });
}

/**
 * Whether a permission that guards a single field or value (x-permission, x-value-permissions) is
 * held: it must be granted by name, not through a wildcard — SPEC §6 lists `scheduler.complex_query`
 * beside `scheduler.*`, so the wildcard alone does not open it.
 */
export const permissionHeldByName = (held: readonly string[], required: string) => held.includes(required);

/** Whether granted modules meet a requirement: none required, or at least one of them held. */
export function modulesGranted(granted: readonly string[], required: readonly string[] | undefined): boolean {
  if (!required || required.length === 0) return true;
  return required.some((module) => granted.includes(module));
}

/** Reading the tenant's user list (e-mail addresses) is user administration. */
export const USER_LIST_PERMISSION = 'users.list';
