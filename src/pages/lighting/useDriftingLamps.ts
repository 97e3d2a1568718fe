// The tenant's lamps out of step (reporting another level than their own), read again every
// minute while the dashboard is open: the lighting engine decides each minute.
import { useCustom } from '@refinedev/core';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import { DRIFTING_LAMPS, type DriftingLamp } from './queries.ts';

export const DRIFTING_REFRESH_MS = 60_000;

export function useDriftingLamps() {
  const { query } = useCustom<{ drifting_lamps: DriftingLamp[] }>({
    url: '', method: 'post', meta: graphqlMeta(DRIFTING_LAMPS), errorNotification: false,
    queryOptions: { refetchInterval: DRIFTING_REFRESH_MS },
  });
  return { lamps: query.data?.data.drifting_lamps, error: query.error, loading: query.isLoading, reload: query.refetch };
}

export type DriftingLamps = ReturnType<typeof useDriftingLamps>;
