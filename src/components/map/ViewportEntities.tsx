// The dashboard's entities, however many the region holds: its areas (all of them: regions and
// zones are few) and, for the place shown, its devices as the server clustered them (GET
// /map-clusters, useMapViewport.ts): lone devices drawn as every entity is (EntityLayers), clusters
// by ClusterLayer. A live change that a cluster counts — a device connecting or leaving, moving,
// created or deleted, a watcher going into alert or out of it, a maintenance window beginning or
// ending, or while the clusters count by colour rules a device's value changing — asks for the
// place again, at most once every REFRESH_MS.
import { useList } from '@refinedev/core';
import { Alert, Button } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapFeatureRow } from '../../schemas/mapFeatures.ts';
import { ClusterLayer } from './ClusterLayer.tsx';
import { EntityLayers } from './EntityLayers.tsx';
import { rulesInEffect, type MapColouring } from './core/entityStyle.ts';
import type { PatchStream } from './core/mapPatches.ts';
import { countedKey, ruleConditionsParam, useMapViewport } from './core/useMapViewport.ts';
import { DIMMED } from './core/colourPalette.ts';
import type { GroupColour } from './core/groupColours.ts';
import { useActiveMaintenance } from '../../maintenance/useActiveMaintenance.ts';

const REFRESH_MS = 750;
const NO_GROUPS: readonly GroupColour[] = [];

interface ViewportEntitiesProps {
  /** The region's areas (GET /map-features?shape=areas). */
  areaRows: readonly MapFeatureRow[];
  region?: number;
  level?: number;
  attribute?: string;
  selectedId?: number;
  patches: PatchStream;
  colouring?: MapColouring;
  memberGroup?: ReadonlyMap<number, number>;
  /** The map levels of the devices answered so far. */
  onLevels(levels: number[]): void;
}

export function ViewportEntities({ areaRows, region, level, attribute, patches, onLevels, ...shown }: ViewportEntitiesProps) {
  const { t } = useTranslation();
  // the clusters count their devices by what the map colours by: the chosen groups, else the colour rules
  const chosen = shown.colouring?.groups ?? NO_GROUPS;
  const ruled = attribute === undefined || !shown.colouring ? undefined : rulesInEffect(shown.colouring);
  const rules = useMemo(() => ruled && ruleConditionsParam(ruled.rules), [ruled]);
  const groups = chosen.length ? chosen.map(({ id }) => id).join() : undefined;
  const { answer, answerCounted, error, refresh } = useMapViewport({ region, level, attribute, rules, groups });
  // the classes' colours only on counts by these classes (an answer to others is on screen until the next)
  const classColours = useMemo(() => {
    if (answerCounted === undefined || answerCounted !== countedKey({ rules, groups })) return undefined;
    return groups ? [...chosen.map(({ colour }) => colour), DIMMED] : ruled && [...ruled.rules.map((rule) => rule.colour), ruled.otherwise];
  }, [answerCounted, rules, groups, chosen, ruled]);
  // each entity's group: the areas' from their members, each device's from the answer
  const memberGroup = useMemo(() => {
    if (!groups) return shown.memberGroup;
    const merged = new Map(shown.memberGroup);
    for (const [id, , , , , , , group] of answer.points) if (typeof group === 'number') merged.set(id, group);
    return merged;
  }, [groups, shown.memberGroup, answer.points]);
  const rows = useMemo(() => [
    ...areaRows,
    ...answer.points.map(([id, type, pointLevel, lng, lat, , value]): MapFeatureRow => [id, type, pointLevel, null, [lng, lat], value, null]),
  ], [areaRows, answer.points]);
  useEffect(() => onLevels(answer.levels), [answer.levels, onLevels]);

  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const refreshSoon = useRef(() => {
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      refreshRef.current();
    }, REFRESH_MS);
  });
  useEffect(() => {
    const unsubscribe = patches.subscribe((changes) => {
      if ([...changes.values()].some((patch) => patch.state || patch.deleted || patch.position !== undefined || (rules && 'value' in patch))) refreshSoon.current();
    });
    return () => {
      unsubscribe();
      clearTimeout(timer.current);
    };
  }, [patches, rules]);
  // the watchers (the bell's list, live) and the maintenance windows in force, as every page has them
  const { active: inForce } = useActiveMaintenance();
  const { query: watchers } = useList({ resource: 'watcher', pagination: { mode: 'off' }, errorNotification: false, liveMode: 'auto' });
  const seen = useRef<unknown[]>(undefined);
  useEffect(() => {
    if (seen.current && (seen.current[0] !== inForce || seen.current[1] !== watchers.data)) refreshSoon.current();
    seen.current = [inForce, watchers.data];
  }, [inForce, watchers.data]);

  return (
    <>
      <EntityLayers rows={rows} patches={patches} level={level} clustering={false} {...shown} memberGroup={memberGroup} />
      <ClusterLayer clusters={answer.clusters} classColours={classColours} />
      {error ? (
        <Alert className="facility-map-notice" type="error" showIcon message={t('map.viewportFailed')} data-testid="map-viewport-error"
          action={<Button size="small" onClick={refresh}>{t('common.retry')}</Button>} />
      ) : null}
    </>
  );
}
