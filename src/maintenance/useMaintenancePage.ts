// The maintenance page's path, for users the page table lets open it (those whose token allows a mode).
import { maintenanceWindowResource } from '../resources/maintenanceWindow.ts';
import { mayOpen, pageAt, usePages } from '../routing/pages.tsx';
import { useTokenClaims } from '../session/access.ts';

export function useMaintenancePage(): string | undefined {
  const { route } = maintenanceWindowResource;
  return mayOpen(useTokenClaims(), pageAt(usePages(), route).access) ? route : undefined;
}
