// The refine resources of the app and the modules or permission each needs (SPEC §6): the shell's
// reads, then one per model resource (src/resources/<model>.ts).
import type { ResourceProps } from '@refinedev/core';
import { refineResource } from './defineResource.ts';
import { MODEL_RESOURCES } from './modelResources.ts';

export const resources: ResourceProps[] = [
  { name: 'entities', meta: { modules: ['factory-dashboard', 'factory-studio'] } },
  { name: 'entity_types' },
  { name: 'groups' },
  { name: 'group_tree' },
  ...MODEL_RESOURCES.map(refineResource),
];
