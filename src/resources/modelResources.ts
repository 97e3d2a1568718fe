// The generated pages of the app, one per model resource.
import { apiUserResource } from './apiUser.ts';
import { BOARD_KINDS } from './boardKinds.ts';
import { kpiResource } from './kpi.ts';
import { kpiPresetResource } from './kpiPreset.ts';
import { logResource } from './log.ts';
import { maintenanceWindowResource } from './maintenanceWindow.ts';
import type { ModelResource } from './defineResource.ts';
import { notificationResource } from './notification.ts';
import { profileResource } from './profile.ts';
import { schedulerResource } from './scheduler.ts';
import { watcherResource } from './watcher.ts';

export const MODEL_RESOURCES: ModelResource[] = [
  watcherResource, schedulerResource, profileResource, kpiResource, logResource, notificationResource, kpiPresetResource,
  ...BOARD_KINDS.flatMap((kind) => [kind.board, kind.component, kind.share]), apiUserResource, maintenanceWindowResource,
];

export const modelResourceOf = (name: string) => MODEL_RESOURCES.find((resource) => resource.name === name);
