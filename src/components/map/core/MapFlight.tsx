// Takes the map to a chosen entity (a child of FacilityMap): each new flight centres a point or
// fits an area in view. The first one jumps (the page has just opened), later ones fly.
import { useEffect, useRef } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import type { CameraTarget } from './cameraTarget.ts';

/** A point is shown at least this close (a street and its lamps). */
export const POINT_ZOOM = 16;
/** An area fitted in view is not zoomed in further than this. */
const FIT_MAX_ZOOM = 18;
/** Room (px) around a fitted area. */
const FIT_PADDING = 40;

interface MapFlightProps {
  /** Names one choice: a new one flies, the same one again does not. */
  flight: string | undefined;
  /** Where it goes; the flight waits until it is known. */
  target: CameraTarget | undefined;
}

export function MapFlight({ flight, target }: MapFlightProps) {
  const { current } = useMap();
  const flown = useRef<string | undefined>(undefined);
  useEffect(() => {
    const map = current?.getMap();
    if (!map || flight === undefined || !target || flown.current === flight) return;
    const animate = flown.current !== undefined;
    flown.current = flight;
    if ('center' in target) map.flyTo({ center: target.center, zoom: Math.max(map.getZoom(), POINT_ZOOM), animate });
    // fitted as the user left the map turned and tilted (fitBounds would turn it north up)
    else map.fitBounds(target.bounds, { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM, bearing: map.getBearing(), pitch: map.getPitch(), animate });
  }, [current, flight, target]);
  return null;
}
