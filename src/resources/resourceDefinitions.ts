// The refine resources of the app and the modules or permission each needs (SPEC §6).
import type { ResourceProps } from '@refinedev/core';

export const resources: ResourceProps[] = [
  { name: 'entities', meta: { modules: ['factory-dashboard', 'factory-studio'] } },
  { name: 'entity_types' },
  { name: 'groups' },
  { name: 'group_tree' },
  { name: 'watchers', list: '/watcher', meta: { permission: 'watcher.*' } },
];
