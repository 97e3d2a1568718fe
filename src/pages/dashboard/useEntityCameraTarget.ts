// Where the map goes for the selected entity: its record (the one its panel reads, from the same
// cache) gives its position, or its region's extent.
import { useOne } from '@refinedev/core';
import { useMemo } from 'react';
import { cameraTargetOf, type CameraTarget } from '../../components/map/core/cameraTarget.ts';
import type { EntityDetailJson } from '../../schemas/entityJson.ts';

export function useEntityCameraTarget(id: number | undefined): CameraTarget | undefined {
  const { query } = useOne<EntityDetailJson>({ resource: 'entities', id, errorNotification: false, queryOptions: { enabled: id !== undefined } });
  const entity = id === undefined ? undefined : query.data?.data;
  return useMemo(() => cameraTargetOf(entity), [entity]);
}
