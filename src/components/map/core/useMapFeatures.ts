// What the map draws, page after page from GET /map-features.
// Live changes do not go through here: EntityLayers applies them to the map's sources directly;
// after the live connection was lost and is back, the rows are read again (changes made
// meanwhile were never sent).
import { useEffect, useState } from 'react';
import { liveConnection } from '../../../providers/liveConnection.ts';
import { requestAllPages } from '../../../providers/pagedRequest.ts';
import { apiPaths } from '../../../resources/apiMap.ts';
import type { MapFeatureRow, MapFeatures, MapPosition } from '../../../schemas/mapFeatures.ts';

export interface MapFeatureState {
  rows: MapFeatureRow[];
  loading: boolean;
  /** Rows received so far (for the progress shown while loading). */
  loaded: number;
  error?: unknown;
  /** Reload (after an error). */
  reload(): void;
}

/** A live change of one entity on the map; `state`: its connection changed (what a cluster counts). */
export interface MapPatch { position?: MapPosition; value?: unknown; deleted?: boolean; state?: true }

/** `shape: 'areas'`: the areas alone (the points then come from GET /map-clusters, useMapViewport.ts). */
export function useMapFeatures(region: number | undefined, attribute: string | undefined, shape?: 'areas'): MapFeatureState {
  const [rows, setRows] = useState<MapFeatureRow[]>([]);
  const [loading, setLoading] = useState(true);
  const [loaded, setLoaded] = useState(0);
  const [error, setError] = useState<unknown>();
  const [attempt, setAttempt] = useState(0);
  useEffect(() => liveConnection.onReconnected(() => setAttempt((n) => n + 1)), []);

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    setError(undefined);
    setLoaded(0);
    // Drawn once, when every page is in: drawing each page redraws all before it (100,000
    // devices in five pages took twice as long to become usable).
    requestAllPages<MapFeatures, MapFeatureRow>({ path: apiPaths.mapFeatures, query: { region, attribute, shape } }, (page) => page.rows, {
      onPage: (count) => !cancelled && setLoaded(count),
      cancelled: () => cancelled,
    })
      .then((all) => !cancelled && setRows(all))
      .catch((failure: unknown) => !cancelled && setError(failure))
      .finally(() => !cancelled && setLoading(false));
    return () => { cancelled = true; };
  }, [region, attribute, shape, attempt]);

  return { rows, loading, loaded, error, reload: () => setAttempt((n) => n + 1) };
}

/** The compact position (as /map-features sends it) of a GeoJSON geometry from a live diff. */
export function positionOf(geom: unknown): MapPosition {
  if (!geom || typeof geom !== 'object') return null;
  const { type, coordinates, radius } = geom as { type: string; coordinates: [number, number]; radius?: number };
  if (type === 'Point') return radius ? [coordinates[0], coordinates[1], radius] : [coordinates[0], coordinates[1]];
  return geom as MapPosition;
}
