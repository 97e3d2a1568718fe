// The members drawn as areas (regions, zones: few) of each chosen group within the region, from GET
// /group-members?shape=areas: ids only, the map already holds the rest. The devices say their group
// themselves (GET /map-clusters with `groups`): a group of a million lamps is never downloaded.
// Each group is its own cached read; a group appears in the answer once its members are in.
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useCallback } from 'react';
import { requestAllPages } from '../../../providers/pagedRequest.ts';
import { apiPaths } from '../../../resources/apiMap.ts';
import type { GroupMembers } from '../../../schemas/groupMembers.ts';

export interface GroupMemberState {
  /** Group id → its members' ids drawn as areas, for the groups loaded so far. */
  members: ReadonlyMap<number, readonly number[]>;
  failed: boolean;
}

const MEMBERS_FRESH_MS = 60_000;

export function useGroupMembers(region: number | undefined, groups: readonly number[]): GroupMemberState {
  const combine = useCallback((results: UseQueryResult<number[]>[]): GroupMemberState => ({
    members: new Map(groups.flatMap((group, at) => (results[at]?.data ? [[group, results[at].data] as const] : []))),
    failed: results.some((result) => result.isError),
  }), [groups]);
  return useQueries({
    queries: groups.map((group) => ({
      queryKey: ['group-members', region ?? null, group, 'areas'],
      queryFn: () => requestAllPages<GroupMembers, number>({ path: apiPaths.groupMembers, query: { group, region, shape: 'areas' } }, (page) => page.ids),
      staleTime: MEMBERS_FRESH_MS,
    })),
    combine,
  });
}
