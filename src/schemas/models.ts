// Every model the engine serves, by name. Adding a model: its schema file, one line here, its
// table binding in server/resources/bindings.ts and its resource in src/resources/.
import { boardSchema } from './board.ts';
import { componentSchema } from './component.ts';
import { entitySchema } from './entity.ts';
import { kpiSchema } from './kpi.ts';
import { kpiPresetSchema } from './kpiPreset.ts';
import { logSchema } from './log.ts';
import { maintenanceWindowSchema } from './maintenanceWindow.ts';
import type { ModelSchema } from './model.ts';
import { notificationSchema } from './notification.ts';
import { profileSchema } from './profile.ts';
import { publicApiBoardSchema } from './publicApiBoard.ts';
import { publicApiComponentSchema } from './publicApiComponent.ts';
import { publicApiShareSchema } from './publicApiShare.ts';
import { schedulerSchema } from './scheduler.ts';
import { shareSchema } from './share.ts';
import { watcherSchema } from './watcher.ts';

export const MODEL_SCHEMAS = {
  entity: entitySchema,
  kpi: kpiSchema,
  watcher: watcherSchema,
  scheduler: schedulerSchema,
  profile: profileSchema,
  board: boardSchema,
  component: componentSchema,
  share: shareSchema,
  public_api_board: publicApiBoardSchema,
  public_api_component: publicApiComponentSchema,
  public_api_share: publicApiShareSchema,
  notification: notificationSchema,
  log: logSchema,
  kpi_preset: kpiPresetSchema,
  maintenance_window: maintenanceWindowSchema,
} as const satisfies Record<string, ModelSchema>;
export type ModelName = keyof typeof MODEL_SCHEMAS;
