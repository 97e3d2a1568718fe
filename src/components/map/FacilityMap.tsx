// The one MapLibre map of the product (through react-map-gl): the offline base map, the default
// centre, and the rotation and tilt kept across reloads. Layers are its children, each adding and
// removing its own sources (Traccar's map kit, STYLE.md).
import 'maplibre-gl/dist/maplibre-gl.css';
import { setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapLayerMouseEvent, ViewStateChangeEvent } from 'react-map-gl/maplibre';
import Map, { NavigationControl, ScaleControl } from 'react-map-gl/maplibre';
import { offlineStyle } from './baseStyle.ts';
import { DEFAULT_CENTER, DEFAULT_ZOOM, storedOrientation, storeOrientation } from './mapView.ts';

setWorkerUrl(workerUrl);

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
  const style = useMemo(offlineStyle, []);
  const initialViewState = useMemo(() => ({ ...(initialCenter ?? DEFAULT_CENTER), zoom: DEFAULT_ZOOM, ...storedOrientation() }), [initialCenter]);
  return (
    <div className="facility-map" role="region" aria-label={t('map.label')} data-testid="facility-map">
      <Map
        initialViewState={initialViewState}
        mapStyle={style}
        interactiveLayerIds={interactiveLayerIds}
        onClick={onClick}
        onMouseMove={onMouseMove}
        onMouseLeave={onMouseLeave}
        // the element says when the map has drawn everything it has (tests and bench/map.ts wait for it)
        onIdle={(event) => { event.target.getContainer().dataset.state = 'idle'; }}
        onMoveStart={(event) => { event.target.getContainer().dataset.state = 'moving'; }}
        onSourceData={(event) => { if (!event.isSourceLoaded) event.target.getContainer().dataset.state = 'loading'; }}
        onMoveEnd={(event) => {
          storeOrientation(event.viewState.bearing, event.viewState.pitch);
          onMoveEnd?.(event);
        }}
        maxPitch={85}
        attributionControl={{ compact: true, customAttribution: 'Natural Earth' }}
        style={{ width: '100%', height: '100%' }}
      >
        <NavigationControl position="top-right" visualizePitch />
        <ScaleControl position="bottom-left" />
        {children}
      </Map>
    </div>
  );
}
