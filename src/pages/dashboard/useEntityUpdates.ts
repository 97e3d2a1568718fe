// Live changes of the selected entity (SPEC §4): subscribes to entity_updated for it while it is
// selected, and unsubscribes when the selection is cleared or changes.
import { useEffect, useRef } from 'react';
import { liveConnection } from '../../providers/liveConnection.ts';
import type { LatestTelemetry } from '../../schemas/entityJson.ts';
import type { Geometry } from '../../schemas/geometry.ts';
import { ENTITY_UPDATES } from './queries.ts';

export interface EntityUpdate { id: string; diff: { attributes?: Record<string, unknown>; geom?: Geometry | null; telemetry?: LatestTelemetry; deleted?: boolean; [field: string]: unknown }; updated_at: string }

export function useEntityUpdates(id: number | undefined, onUpdate: (update: EntityUpdate) => void): void {
  const handler = useRef(onUpdate);
  handler.current = onUpdate;
  useEffect(() => {
    if (id === undefined) return undefined;
    return liveConnection.subscribe<{ entity_updated: EntityUpdate }>(
      { query: ENTITY_UPDATES, variables: { ids: [String(id)] } },
      (data) => handler.current(data.entity_updated),
    );
  }, [id]);
}
