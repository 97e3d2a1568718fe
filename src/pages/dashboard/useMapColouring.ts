// How the dashboard's map is coloured from its state: the tenant's groups (GET /group-list), the
// chosen ones with their colours and members, and the rules of the colour-by attribute.
import { useList } from '@refinedev/core';
import { useMemo } from 'react';
import type { MapColouring } from '../../components/map/core/entityStyle.ts';
import { groupColours, memberGroups } from '../../components/map/core/groupColours.ts';
import { useGroupMembers } from '../../components/map/core/useGroupMembers.ts';
import type { DashboardState } from './dashboardState.ts';

export interface TenantGroup { id: number; name: string; attributes: Record<string, unknown> | null }

export interface MapColouringState {
  /** Every group of the tenant. */
  groups: TenantGroup[];
  colouring: MapColouring;
  /** Area id → the chosen group it is drawn for (the devices come with theirs: ViewportEntities). */
  memberGroup: ReadonlyMap<number, number>;
  /** The areas of a chosen group could not be loaded. */
  failed: boolean;
}

export function useMapColouring(regionId: number | undefined, state: DashboardState): MapColouringState {
  const groupsCall = useList<TenantGroup>({ resource: 'groups', pagination: { mode: 'off' }, errorNotification: false });
  const groups = useMemo(() => groupsCall.result.data ?? [], [groupsCall.result.data]);
  const { members, failed } = useGroupMembers(regionId, state.groups);
  // a group is drawn once its members are in (until then nothing is dimmed for it)
  const chosen = useMemo(() => groupColours(state.groups, groups).filter((group) => members.has(group.id)), [state.groups, groups, members]);
  const memberGroup = useMemo(() => memberGroups(chosen, members), [chosen, members]);
  const rules = state.attribute === undefined ? undefined : state.rules[state.attribute];
  const colouring = useMemo(() => ({ groups: chosen, rules }), [chosen, rules]);
  return { groups, colouring, memberGroup, failed };
}
