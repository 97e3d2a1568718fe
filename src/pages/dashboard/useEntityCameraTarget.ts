// Where the map goes for the selected entity: its record (the one its panel reads, from the same
// cache) gives its position, or its region's extent.
import { useOne } from '@refinedev/core';
import { useMemo } from 'react';
import { cameraTargetOf, type CameraTarget } from '../../components/map/core/cameraTarget.ts';
import type { EntityDetailJson } from '../../schemas/entityJson.ts';

/** The entity's record as its panel reads it (the same cache), once read. */
export function useEntityRecord(id: number | undefined): EntityDetailJson | undefined {
  const { query } = useOne<EntityDetailJson>({ resource: 'entities', id, errorNotification: false, queryOptions: { enabled: id !== undefined } });
  return id === undefined ? undefined : query.data?.data;
}

export function useEntityCameraTarget(entity: EntityDetailJson | undefined): CameraTarget | undefined {
  return useMemo(() => cameraTargetOf(entity), [entity]);
}
