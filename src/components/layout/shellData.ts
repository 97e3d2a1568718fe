// What the layout loads before it shows anything: the tenant, then the entity types.
import { createContext, useContext } from 'react';

export interface SupportLink {
  name: string;
  link: string;
  icon?: string;
}

export interface Tenant {
  id: string;
  entity_type_id: number | null;
  name: string;
  attributes: { support_navbar_dropdown?: SupportLink[]; [key: string]: unknown };
}

export interface EntityType {
  id: number;
  tenant_id: string;
  entity_type_group_id: number | null;
  category: string;
  name: string;
  definition: Record<string, unknown>;
  attributes_order: string[];
  attributes: Record<string, unknown>;
}

export interface ShellData {
  tenant: Tenant;
  entityTypes: EntityType[];
}

export const ShellDataContext = createContext<ShellData | null>(null);

export function useShellData(): ShellData {
  const data = useContext(ShellDataContext);
  if (!data) throw new Error('useShellData must be used inside the application shell');
  return data;
}
