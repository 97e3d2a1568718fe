// The devices of what the map shows, from GET /map-clusters: asked again whenever the map comes to
// rest somewhere new, for the screen and a margin around it (viewportQuery).
// While an answer is on its way the map's element says `data-fetching`, so that its `data-state`
// turns idle only once the answer is drawn. `refresh` asks again for the same place (live changes).
import { useCallback, useEffect, useState } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import { httpRequest } from '../../../providers/httpClient.ts';
import { apiPaths } from '../../../resources/apiMap.ts';
import type { MapClusters } from '../../../schemas/mapClusters.ts';
import type { RuleCondition } from '../../../shared/map/ruleConditions.ts';
import { viewportQuery } from '../../../shared/map/mapCells.ts';

const NO_ANSWER: MapClusters = { clusters: [], points: [], zoom: 0, levels: [] };

export interface MapViewportScope {
  region?: number;
  level?: number;
  attribute?: string;
  /** The attribute's colour rules as GET /map-clusters takes them (ruleConditionsParam): the clusters count by them… */
  rules?: string;
  /** …or the groups the map colours (comma list, in the order chosen). */
  groups?: string;
}

/** Colour rules as the `rules` parameter: their conditions as JSON, without their colours (the server counts, the browser colours). */
export const ruleConditionsParam = (rules: readonly RuleCondition[]) => JSON.stringify(rules.map(({ operator, value, to }) => ({ operator, value, to })));

export interface MapViewportState {
  answer: MapClusters;
  /** What the answer's clusters count by (countedKey; the scope's may have changed since it was asked). */
  answerCounted?: string;
  error?: unknown;
  /** Ask again for the place shown. */
  refresh(): void;
}

/** What a scope's clusters count by, as one key. */
export const countedKey = ({ rules, groups }: MapViewportScope) => (rules ?? groups ? JSON.stringify([rules, groups]) : undefined);

export function useMapViewport({ region, level, attribute, rules, groups }: MapViewportScope): MapViewportState {
  const { current } = useMap();
  const [{ answer, answerCounted }, setAnswer] = useState<{ answer: MapClusters; answerCounted?: string }>({ answer: NO_ANSWER });
  const [error, setError] = useState<unknown>();
  // the latest request's number: an answer to an earlier one is dropped
  const [asked] = useState(() => ({ latest: 0 }));

  const ask = useCallback(() => {
    const map = current?.getMap();
    if (!map) return;
    const bounds = map.getBounds();
    const query = viewportQuery({ west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth() }, map.getZoom());
    const element = map.getContainer();
    const request = ++asked.latest;
    element.dataset.fetching = 'true';
    element.dataset.state = 'loading';
    httpRequest<MapClusters>({
      path: apiPaths.mapClusters,
      query: { region, level, attribute, rules, groups, ...query },
    })
      .then((next) => {
        if (request !== asked.latest) return;
        setError(undefined);
        setAnswer({ answer: next, answerCounted: countedKey({ rules, groups }) });
      })
      .catch((failure: unknown) => {
        if (request === asked.latest) setError(failure);
      })
      .finally(() => {
        if (request !== asked.latest) return;
        delete element.dataset.fetching;
        map.triggerRepaint(); // the map settles again, now with the answer (FacilityMap's idle)
      });
  }, [current, region, level, attribute, rules, groups, asked]);

  useEffect(() => {
    const map = current?.getMap();
    if (!map) return undefined;
    // at once: the camera is known before the base map's style has loaded
    ask();
    map.on('moveend', ask);
    return () => {
      map.off('moveend', ask);
      asked.latest++; // an answer on its way is for a scope no longer shown
      delete map.getContainer().dataset.fetching;
    };
  }, [current, ask, asked]);

  return { answer, answerCounted, error, refresh: ask };
}
