// The one MapLibre map of the product (through react-map-gl): the configured base map (the offline
// one, with a notice, when it cannot be drawn), the default centre, and the rotation and tilt kept
// across reloads. Layers are its children, each adding and removing its own sources (Traccar's map
// kit, STYLE.md); react-map-gl adds them again when the base map's style is replaced.
import 'maplibre-gl/dist/maplibre-gl.css';
import './facilityMap.css';
import { setWorkerUrl, type Map as MapLibreMap } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapLayerMouseEvent, ViewStateChangeEvent } from 'react-map-gl/maplibre';
import Map, { NavigationControl, ScaleControl } from 'react-map-gl/maplibre';
import { DEFAULT_CENTER } from '../../../schemas/mapConfig.ts';
import { DEFAULT_ZOOM, storedOrientation, storeOrientation } from './mapView.ts';
import { useBaseMap } from './useBaseMap.ts';

setWorkerUrl(workerUrl);

/** The element says where the map is once it has moved or resized, and at what size (the browser tests read the camera from it). */
function writeView(map: MapLibreMap) {
  const container = map.getContainer();
  const { dataset } = container;
  const round = (value: number) => value.toFixed(6);
  dataset.size = `${container.clientWidth}x${container.clientHeight}`;
  dataset.center = map.getCenter().toArray().map(round).join(',');
  dataset.zoom = map.getZoom().toFixed(2);
  dataset.bounds = map.getBounds().toArray().flat().map(round).join(',');
}

export interface FacilityMapProps {
  children?: ReactNode;
  /** Layers whose features answer clicks (their ids). */
  interactiveLayerIds?: string[];
  onClick?(event: MapLayerMouseEvent): void;
  onMouseMove?(event: MapLayerMouseEvent): void;
  onMouseLeave?(event: MapLayerMouseEvent): void;
  onMoveEnd?(event: ViewStateChangeEvent): void;
  /** Where to start instead of the default centre. */
  initialCenter?: { latitude: number; longitude: number };
}

export function FacilityMap({ children, interactiveLayerIds, onClick, onMouseMove, onMouseLeave, onMoveEnd, initialCenter }: FacilityMapProps) {
  const { t } = useTranslation();
  const { baseMap, fellBack, loaded, onStyleData, onError } = useBaseMap();
  const initialViewState = useMemo(() => ({ ...(initialCenter ?? DEFAULT_CENTER), zoom: DEFAULT_ZOOM, ...storedOrientation() }), [initialCenter]);
  return (
    <div className="facility-map" role="region" aria-label={t('map.label')} data-testid="facility-map"
      // the base map drawn (tests)
      data-base-map={loaded ? baseMap?.kind : undefined}>
      {fellBack && <Alert className="facility-map-notice" type="warning" showIcon message={t('baseMap.fallback')} data-testid="base-map-notice" />}
      {baseMap && <Map
        initialViewState={initialViewState}
        mapStyle={baseMap.style}
        // a fallback replaces a style that never loaded: nothing to compare it with
        styleDiffing={false}
        onStyleData={onStyleData}
        onError={onError}
        interactiveLayerIds={interactiveLayerIds}
        onClick={onClick}
        onMouseMove={onMouseMove}
        onMouseLeave={onMouseLeave}
        // the element says when the map has drawn everything it has (tests and bench/map.ts wait for
        // it); not while the devices of the place shown are on their way (useMapViewport.ts)
        onLoad={(event) => writeView(event.target)}
        onIdle={(event) => {
          const { dataset } = event.target.getContainer();
          if (!dataset.fetching) dataset.state = 'idle';
        }}
        onMoveStart={(event) => { event.target.getContainer().dataset.state = 'moving'; }}
        onSourceData={(event) => { if (!event.isSourceLoaded) event.target.getContainer().dataset.state = 'loading'; }}
        onMoveEnd={(event) => {
          storeOrientation(event.viewState.bearing, event.viewState.pitch);
          writeView(event.target);
          onMoveEnd?.(event);
        }}
        maxPitch={85}
        attributionControl={{ compact: true }}
        style={{ width: '100%', height: '100%' }}
      >
        <NavigationControl position="top-right" visualizePitch />
        <ScaleControl position="bottom-left" />
        {children}
      </Map>}
    </div>
  );
}
