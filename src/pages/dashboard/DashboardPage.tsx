// /dashboard (module factory-dashboard, SPEC §2–§4): the selected region's entities on the map,
// region selection (kept in a cookie), search, the map level, group and rule colouring with their
// legend (kept in the dashboard state), sunrise and sunset, the lamps out of step, and the selected
// entity's view and detail, live. The address follows the selection without a navigation, and the map flies to it.
import { FilterOutlined } from '@ant-design/icons';
import { useList } from '@refinedev/core';
import { Alert, Button, Card, Select, Spin } from 'antd';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_CENTER } from '../../schemas/mapConfig.ts';
import { createPatchStream, useMapEntityUpdates } from '../../components/map/core/mapPatches.ts';
import { levelsOf } from '../../components/map/core/mapFeatures.ts';
import { useMapFeatures } from '../../components/map/core/useMapFeatures.ts';
import { FocusPanel } from '../../components/layout/FocusPanel.tsx';
import { useShellData } from '../../components/layout/shellData.ts';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { lazyWithReload } from '../../pwa/chunkReload.ts';
import { DriftingLampsButton } from '../lighting/DriftingLampsButton.tsx';
import { DriftingLampsCard } from '../lighting/DriftingLampsCard.tsx';
import { useDriftingLamps } from '../lighting/useDriftingLamps.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';
import { useAddressSelection } from './addressSelection.ts';
import { DashboardLayout } from './DashboardLayout.tsx';
import { DashboardWidgets } from './widgets/DashboardWidgets.tsx';
import { EntityPanel } from './EntityPanel.tsx';
import { EntitySearch } from './EntitySearch.tsx';
import { MapFiltersCard } from './MapFiltersCard.tsx';
import { MapLegend } from './MapLegend.tsx';
import { useColourLegend } from './useColourLegend.ts';
import { storedRegion, storeRegion } from './regionCookie.ts';
import { SunTimesCard } from './SunTimesCard.tsx';
import { useDashboardState } from './useDashboardState.ts';
import { useEntityCameraTarget, useEntityRecord } from './useEntityCameraTarget.ts';
import { useMapColouring } from './useMapColouring.ts';
import './dashboard.css';

/**
 * MapLibre's chunk: asked for when the map first renders (once the regions are in), not compiled
 * before the page can render at all; the widgets ask for their data meanwhile.
 */
const DashboardMap = lazyWithReload(() => import('./DashboardMap.tsx'));

export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  usePageTitle('routes.dashboard');
  const { entityTypes } = useShellData();
  const regionTypeId = entityTypes.find((type) => type.attributes?.system_name === 'region')?.id;
  const regionsCall = useList<EntityJson>({
    resource: 'entities',
    filters: [{ field: 'type', operator: 'eq', value: regionTypeId }],
    pagination: { mode: 'off' },
    errorNotification: false,
    queryOptions: { enabled: regionTypeId !== undefined },
  });
  const regions = useMemo(() => regionsCall.result.data ?? [], [regionsCall.result.data]);
  const [regionId, setRegionId] = useState<number | undefined>(storedRegion);
  const [selection, select] = useAddressSelection();
  const [center, setCenter] = useState<{ latitude: number; longitude: number }>(DEFAULT_CENTER);
  const [state, changeState] = useDashboardState();
  const { attribute } = state;
  // the areas; the devices come for the place shown (ViewportEntities)
  const features = useMapFeatures(regionId, attribute, 'areas');
  // the map levels of the areas and of every device answered since the region was chosen
  const [deviceLevels, setDeviceLevels] = useState<{ region?: number; levels: number[] }>({ levels: [] });
  const onDeviceLevels = useCallback((answered: number[]) => setDeviceLevels((known) => {
    const kept = known.region === regionId ? known.levels : [];
    if (known.region === regionId && answered.every((level) => kept.includes(level))) return known;
    return { region: regionId, levels: [...new Set([...kept, ...answered])] };
  }), [regionId]);
  const levels = useMemo(() => [...new Set([...levelsOf(features.rows), ...(deviceLevels.region === regionId ? deviceLevels.levels : [])])].sort((a, b) => a - b),
    [features.rows, deviceLevels, regionId]);
  const selected = useEntityRecord(selection.id);
  // the KPI widgets narrow to a selected device; a region or zone selected leaves them whole
  const widgetEntityId = useMemo(() => {
    const system = selected && entityTypes.find((type) => type.id === selected.entity_type_id)?.attributes?.system_name;
    return selected && system !== 'region' && system !== 'zone' ? selected.id : undefined;
  }, [selected, entityTypes]);
  const { groups, colouring, memberGroup, failed: membersFailed } = useMapColouring(regionId, state);
  const legend = useColourLegend(colouring, groups, attribute);
  // 'active' (connected or not) and the attributes the entity types list
  const colourAttributes = useMemo(() => ['active', ...new Set(entityTypes.flatMap((type) => type.attributes_order ?? []).filter((key) => key !== 'active'))], [entityTypes]);

  // SPEC §4: when the regions load and none is selected, the first is, and becomes the selection.
  useEffect(() => {
    if (!regions.length || regions.some((region) => region.id === regionId)) return;
    const [first] = regions;
    setRegionId(first.id);
    storeRegion(first.id);
    if (selection.id === undefined) select({ id: first.id, detail: false });
  }, [regions, regionId, selection.id, select]);

  const region = regions.find((candidate) => candidate.id === regionId);

  // every change of the tenant's entities, for the map (the panel listens to its entity alone)
  const patches = useMemo(createPatchStream, []);
  useMapEntityUpdates(patches, attribute);

  // A choice the user makes flies the map there (again, if chosen again); the panel takes focus
  // when the choice came from elsewhere than the region picker, which keeps it.
  const [flights, setFlights] = useState(0);
  const [panelFocus, setPanelFocus] = useState<string>();
  const choose = (id: number, focusPanel: boolean) => {
    select({ id, detail: false });
    setFlights((count) => count + 1);
    if (focusPanel) setPanelFocus(`${id}#${flights}`);
  };
  const flightTarget = useEntityCameraTarget(selected);

  const filtersOpen = state.filtersOpen ?? false;
  const [filtersFocus, setFiltersFocus] = useState<number>();
  const showFilters = (open: boolean) => {
    changeState({ filtersOpen: open });
    if (open) setFiltersFocus((count) => (count ?? 0) + 1);
  };

  const drifting = useDriftingLamps();
  const [driftingFocus, setDriftingFocus] = useState<number>();
  const driftingOpen = driftingFocus !== undefined;
  const showDrifting = (open: boolean) => {
    setDriftingFocus(open ? Date.now() : undefined);
    if (open) void drifting.reload();
  };

  // the map starts where the region is, so it waits for the regions; the widgets do not
  const regionsLoading = regionTypeId !== undefined && regionsCall.query.isLoading;

  const mapLoading = (
    <div className="dashboard-map-loading" role="status">
      <Spin size="small" /> {t('dashboard.loadingMap')}{features.loaded ? ` (${features.loaded.toLocaleString(i18n.language)})` : ''}
    </div>
  );

  const toolbar = (
    <>
      <Select
        aria-label={t('dashboard.region')}
        data-testid="region-select"
        className="dashboard-region"
        value={regionId}
        placeholder={t('dashboard.region')}
        options={regions.map((candidate) => ({ value: candidate.id, label: pickLocalized(candidate.name, i18n.language) }))}
        onChange={(id: number) => {
          setRegionId(id);
          storeRegion(id);
          choose(id, false);
        }}
      />
      <div className="dashboard-search"><EntitySearch onSelect={(id) => choose(id, true)} /></div>
      <Button icon={<FilterOutlined />} aria-expanded={filtersOpen} aria-controls="dashboard-filters" data-testid="filters-toggle"
        type={filtersOpen ? 'primary' : 'default'} onClick={() => showFilters(!filtersOpen)}>
        {t('dashboardFilters.title')}
      </Button>
      <DriftingLampsButton count={drifting.lamps?.length} open={driftingOpen} controls="dashboard-drifting" onToggle={() => showDrifting(!driftingOpen)} />
    </>
  );

  const panel = selection.id !== undefined && (
    <FocusPanel className="dashboard-entity" label={t('mapLayout.entityPanel')} focusKey={panelFocus} onClose={() => select({ detail: false })}>
      <EntityPanel
        key={selection.id}
        id={selection.id}
        detail={selection.detail}
        onDetail={(detail) => select({ id: selection.id, detail })}
        onClose={() => select({ detail: false })}
        onSelect={(id) => choose(id, true)}
      />
    </FocusPanel>
  );

  return (
    <DashboardLayout toolbar={toolbar} panel={panel} panelWide={selection.detail}
      widgets={<DashboardWidgets groupIds={state.groups} entityId={widgetEntityId} />}>
      {(features.loading || regionsLoading) && mapLoading}
      {!regionsLoading && (
        <Suspense fallback={features.loading ? null : mapLoading}>
          <DashboardMap
            region={region}
            entities={{ areaRows: features.rows, region: regionId, level: state.level, attribute, onLevels: onDeviceLevels, selectedId: selection.id, patches, colouring, memberGroup }}
            flight={selection.id === undefined ? undefined : `${selection.id}#${flights}`}
            flightTarget={flightTarget}
            legend={legend.entries}
            onChoose={(id) => choose(id, true)}
            onCenter={setCenter}
          />
        </Suspense>
      )}
      {(filtersOpen || driftingOpen) && (
        <div className="dashboard-overlays">
          {filtersOpen && (
            <FocusPanel id="dashboard-filters" className="dashboard-filters" label={t('dashboardFilters.title')} focusKey={filtersFocus} onClose={() => showFilters(false)}>
              <MapFiltersCard state={state} onChange={changeState} levels={levels} groups={groups} attributes={colourAttributes} membersFailed={membersFailed} />
              <Card size="small"><SunTimesCard latitude={center.latitude} longitude={center.longitude} /></Card>
            </FocusPanel>
          )}
          {driftingOpen && (
            <FocusPanel id="dashboard-drifting" className="dashboard-drifting" label={t('lighting.drifting.title')} focusKey={driftingFocus} onClose={() => showDrifting(false)}>
              <DriftingLampsCard drifting={drifting} onSelect={(id) => choose(id, true)} />
            </FocusPanel>
          )}
        </div>
      )}
      {features.error ? (
        <Alert className="dashboard-map-error" type="error" showIcon message={t('dashboard.mapLoadFailed')} action={<Button size="small" onClick={features.reload}>{t('common.retry')}</Button>} />
      ) : null}
      <MapLegend legend={legend} />
    </DashboardLayout>
  );
}
