// The devices of what the map shows, from GET /map-clusters: asked again whenever the map comes to
// rest somewhere new, for the screen and a margin of a quarter of it on each side (a short pan
// needs no new answer), at the highest zoom whose cells fit one answer (a tilted map sees far).
// While an answer is on its way the map's element says `data-fetching`, so that its `data-state`
// turns idle only once the answer is drawn. `refresh` asks again for the same place (live changes).
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useCallback, useEffect, useState } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import { httpRequest } from '../../../providers/httpClient.ts';
import { apiPaths } from '../../../resources/apiMap.ts';
import type { MapClusters } from '../../../schemas/mapClusters.ts';
import { answerableZoom, type Bounds } from '../../../shared/map/mapCells.ts';

const MARGIN = 0.25;
const NO_ANSWER: MapClusters = { clusters: [], points: [], zoom: 0, levels: [] };

export interface MapViewportScope { region?: number; level?: number; attribute?: string }

export interface MapViewportState {
  answer: MapClusters;
  error?: unknown;
  /** Ask again for the place shown. */
  refresh(): void;
}

/** The map's bounds grown by MARGIN on every side, within the world. */
function viewportOf(map: MapLibreMap): Bounds & { zoom: number } {
  const bounds = map.getBounds();
  const width = bounds.getEast() - bounds.getWest();
  const height = bounds.getNorth() - bounds.getSouth();
  const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));
  const grown = {
    west: clamp(bounds.getWest() - width * MARGIN, 180), east: clamp(bounds.getEast() + width * MARGIN, 180),
    south: clamp(bounds.getSouth() - height * MARGIN, 85.05), north: clamp(bounds.getNorth() + height * MARGIN, 85.05),
  };
  return { ...grown, zoom: answerableZoom(grown, map.getZoom()) };
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

export function useMapViewport({ region, level, attribute }: MapViewportScope): MapViewportState {
  const { current } = useMap();
  const [answer, setAnswer] = useState<MapClusters>(NO_ANSWER);
  const [error, setError] = useState<unknown>();
  // the latest request's number: an answer to an earlier one is dropped
  const [asked] = useState(() => ({ latest: 0 }));

  const ask = useCallback(() => {
    const map = current?.getMap();
    if (!map) return;
    const { west, south, east, north, zoom } = viewportOf(map);
    const element = map.getContainer();
    const request = ++asked.latest;
    element.dataset.fetching = 'true';
    element.dataset.state = 'loading';
    httpRequest<MapClusters>({
      path: apiPaths.mapClusters,
      // past the answerable zoom the cells are coarser; within it the exact zoom (above 16 every device is listed)
      query: { region, level, attribute, zoom: zoom < Math.floor(map.getZoom()) ? zoom : map.getZoom(), west: round(west), south: round(south), east: round(east), north: round(north) },
    })
      .then((next) => {
        if (request !== asked.latest) return;
        setError(undefined);
        setAnswer(next);
      })
      .catch((failure: unknown) => {
        if (request === asked.latest) setError(failure);
      })
      .finally(() => {
        if (request !== asked.latest) return;
        delete element.dataset.fetching;
        map.triggerRepaint(); // the map settles again, now with the answer (FacilityMap's idle)
      });
  }, [current, region, level, attribute, asked]);

  useEffect(() => {
    const map = current?.getMap();
    if (!map) return undefined;
    if (map.loaded()) ask();
    else map.once('load', ask);
    map.on('moveend', ask);
    return () => {
      map.off('load', ask);
      map.off('moveend', ask);
      asked.latest++; // an answer on its way is for a scope no longer shown
      delete map.getContainer().dataset.fetching;
    };
  }, [current, ask, asked]);

  return { answer, error, refresh: ask };
}
