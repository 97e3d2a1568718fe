// A region's floor-plan image laid on the map by its four corners (an image source), under the
// entities; with `onMove`, and unless locked, each corner is a handle to drag or to move with the
// arrow keys.
import { useEffect } from 'react';
import { Layer, Marker, Source, useMap } from 'react-map-gl/maplibre';
import { useTranslation } from 'react-i18next';
import { scaledCorners, withCornerMoved, type Corners, type Overlay } from '../../schemas/overlay.ts';
import { AREA_LAYER } from './EntityLayers.tsx';
import { useSessionFile } from '../../providers/useSessionFile.ts';

export const OVERLAY_LAYER = 'region-overlay';
const CORNERS = ['topLeft', 'topRight', 'bottomRight', 'bottomLeft'] as const;
/** How far one arrow key press moves a corner, in degrees (about 1 m; 10 m with Shift). */
const KEY_STEP = 0.00001;
const KEY_DIRECTIONS: Record<string, [number, number]> = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

interface OverlayLayerProps {
  overlay: Overlay | undefined;
  /** Called with the new placement when a corner is moved; without it the overlay is fixed. */
  onMove?(placement: { coordinates: Corners; scale: number }): void;
}

export function OverlayLayer({ overlay, onMove }: OverlayLayerProps) {
  const { t } = useTranslation();
  const { current: map } = useMap();
  const image = useSessionFile(overlay?.url);
  const drawn = overlay && image.src ? scaledCorners(overlay) : undefined;
  // the map element says where the overlay lies and whether it is locked (the browser tests read it)
  const placement = drawn && JSON.stringify({ corners: drawn.map((corner) => corner.map((value) => Number(value.toFixed(6)))), locked: !!overlay?.locked });
  useEffect(() => {
    const element = map?.getContainer();
    if (!element || !placement) return undefined;
    element.dataset.overlay = placement;
    return () => { delete element.dataset.overlay; };
  }, [map, placement]);
  if (!overlay || !drawn) return null;
  const movable = onMove && !overlay.locked;
  const move = (index: number, to: [number, number]) => onMove?.(withCornerMoved(overlay, index, to));
  return (
    <>
      <Source id="region-overlay-source" type="image" url={image.src} coordinates={drawn}>
        <Layer id={OVERLAY_LAYER} type="raster" paint={{ 'raster-opacity': 0.8, 'raster-fade-duration': 0 }}
          beforeId={map?.getLayer(AREA_LAYER) ? AREA_LAYER : undefined} />
      </Source>
      {movable && drawn.map(([longitude, latitude], index) => (
        <Marker key={CORNERS[index]} longitude={longitude} latitude={latitude} draggable
          onDragEnd={(event) => move(index, [event.lngLat.lng, event.lngLat.lat])}>
          <button type="button" className="overlay-corner" data-testid={`overlay-corner-${index}`}
            aria-label={t(`overlay.corner.${CORNERS[index]}`)} title={t('overlay.cornerHint')}
            onKeyDown={(event) => {
              const direction = KEY_DIRECTIONS[event.key];
              if (!direction) return;
              event.preventDefault();
              const step = KEY_STEP * (event.shiftKey ? 10 : 1);
              move(index, [longitude + direction[0] * step, latitude + direction[1] * step]);
            }} />
        </Marker>
      ))}
    </>
  );
}
