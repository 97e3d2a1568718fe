// The dashboard's map (DashboardPage): the region's overlay and extent, its entities for the place
// shown, the flight to the selection, and the cards of what the pointer rests on. A chunk of its
// own with MapLibre, loaded when the map first renders (once the regions are in): the page and its
// KPI widgets render without waiting for MapLibre's code to be compiled (bench/README.md "KPI charts").
import { useState, type ComponentProps } from 'react';
import type { MapLayerMouseEvent } from 'react-map-gl/maplibre';
import { AREA_LAYER, POINT_LAYER } from '../../components/map/EntityLayers.tsx';
import { ViewportEntities } from '../../components/map/ViewportEntities.tsx';
import { clusterBoundsOf, clusterOf, SERVER_CLUSTER_LAYER } from '../../components/map/core/clusterFeatures.ts';
import type { CameraTarget } from '../../components/map/core/cameraTarget.ts';
import { FacilityMap } from '../../components/map/core/FacilityMap.tsx';
import { HoverCard, type Hovered } from '../../components/map/HoverCard.tsx';
import { MapFlight } from '../../components/map/core/MapFlight.tsx';
import { entityIdOf } from '../../components/map/core/mapFeatures.ts';
import { OverlayLayer } from '../../components/map/OverlayLayer.tsx';
import { RegionExtentLayer, regionExtentOf } from '../../components/map/RegionExtentLayer.tsx';
import { MAX_CLUSTER_ZOOM } from '../../schemas/mapClusters.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';
import type { Overlay } from '../../schemas/overlay.ts';
import { ClusterCard, type HoveredCluster } from './ClusterCard.tsx';
import type { LegendEntry } from './useColourLegend.ts';

export interface DashboardMapProps {
  region: EntityJson | undefined;
  entities: ComponentProps<typeof ViewportEntities>;
  /** Changes each time the map should fly to `flightTarget`. */
  flight: string | undefined;
  flightTarget: CameraTarget | undefined;
  legend: readonly LegendEntry[];
  /** An entity clicked on the map. */
  onChoose(id: number): void;
  onCenter(center: { latitude: number; longitude: number }): void;
}

export default function DashboardMap({ region, entities, flight, flightTarget, legend, onChoose, onCenter }: DashboardMapProps) {
  const [hovered, setHovered] = useState<Hovered>();
  const [hoveredCluster, setHoveredCluster] = useState<HoveredCluster>();
  const regionCenter = region?.geom?.type === 'Point' ? { longitude: region.geom.coordinates[0], latitude: region.geom.coordinates[1] } : undefined;

  const onHover = (event: MapLayerMouseEvent) => {
    const cluster = clusterOf(event);
    setHoveredCluster(cluster && { cluster, longitude: event.lngLat.lng, latitude: event.lngLat.lat });
    const id = entityIdOf(event);
    // the map element names what the pointer rests on (the browser tests find entities by it)
    event.target.getContainer().dataset.hovered = id === undefined ? '' : String(id);
    if (id === undefined) return setHovered(undefined);
    if (hovered?.id !== id) setHovered({ id, longitude: event.lngLat.lng, latitude: event.lngLat.lat });
  };

  const onClick = (event: MapLayerMouseEvent) => {
    // a cluster opens onto its cell
    const cluster = clusterOf(event);
    if (cluster) return void event.target.fitBounds(clusterBoundsOf(cluster), { padding: 40, maxZoom: MAX_CLUSTER_ZOOM + 1 });
    const id = entityIdOf(event);
    if (id !== undefined) onChoose(id);
  };

  return (
    <FacilityMap
      initialCenter={regionCenter}
      interactiveLayerIds={[POINT_LAYER, AREA_LAYER, SERVER_CLUSTER_LAYER]}
      onClick={onClick}
      onMouseMove={onHover}
      onMouseLeave={() => {
        setHovered(undefined);
        setHoveredCluster(undefined);
      }}
      onMoveEnd={(event) => onCenter({ latitude: event.viewState.latitude, longitude: event.viewState.longitude })}
    >
      <OverlayLayer overlay={region?.attributes.overlay as Overlay | undefined} />
      <RegionExtentLayer extent={regionExtentOf(region)} />
      <ViewportEntities {...entities} />
      <MapFlight flight={flight} target={flightTarget} />
      {hovered && <HoverCard hovered={hovered} />}
      {hoveredCluster && <ClusterCard hovered={hoveredCluster} legend={legend} />}
    </FacilityMap>
  );
}
