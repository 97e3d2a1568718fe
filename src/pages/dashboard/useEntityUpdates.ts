// Live changes of the selected entity (SPEC §4): subscribes to entity_updated for it while it is
// selected, and unsubscribes when the selection is cleared or changes.
import { useLiveSubscription } from '../../providers/useLiveSubscription.ts';
import type { LatestTelemetry } from '../../schemas/entityJson.ts';
import type { Geometry } from '../../schemas/geometry.ts';
import { ENTITY_UPDATES } from './queries.ts';

export interface EntityUpdate { id: string; diff: { attributes?: Record<string, unknown>; geom?: Geometry | null; telemetry?: LatestTelemetry; deleted?: boolean; [field: string]: unknown }; updated_at: string }

export function useEntityUpdates(id: number | undefined, onUpdate: (update: EntityUpdate) => void): void {
  useLiveSubscription<{ entity_updated: EntityUpdate }>(
    id === undefined ? undefined : { query: ENTITY_UPDATES, variables: { ids: [String(id)] } },
    (data) => onUpdate(data.entity_updated),
  );
}
