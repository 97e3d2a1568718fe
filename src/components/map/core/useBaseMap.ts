// Which base map FacilityMap draws: the server's configuration (GET /map-config, read once a
// session), made into a style. When it cannot be drawn — the configuration or the style does not
// load, the map reports an error before its style has loaded, or the style has not loaded within
// STYLE_TIMEOUT_MS — the offline map is drawn instead and `fellBack` says so.
import { useCustom } from '@refinedev/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPaths } from '../../../resources/apiMap.ts';
import type { MapConfig } from '../../../schemas/mapConfig.ts';
import { baseMapStyle, offlineBaseMap, type BaseMapStyle } from './baseMaps.ts';

export const STYLE_TIMEOUT_MS = 8_000;

export interface BaseMapState {
  /** What to draw; undefined while the configuration loads (no other map is drawn meanwhile). */
  baseMap?: BaseMapStyle;
  /** The configured base map could not be drawn: the offline one is. */
  fellBack: boolean;
  /** The drawn style has loaded. */
  loaded: boolean;
  /** The map's `styledata` and `error` events. */
  onStyleData(): void;
  onError(event: { error: Error }): void;
}

export function useBaseMap(): BaseMapState {
  const { i18n } = useTranslation();
  // the labels' language when the map opens: a new style later would drop what the children drew
  const [language] = useState(i18n.language);
  const { query } = useCustom<MapConfig>({
    url: apiPaths.mapConfig,
    method: 'get',
    errorNotification: false,
    queryOptions: { staleTime: Infinity },
  });
  const configured = query.data?.data.base_map;
  const [prepared, setPrepared] = useState<BaseMapStyle>();
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const fellBack = failed || query.isError;
  const fallBack = useCallback(() => setFailed(true), []);

  useEffect(() => {
    if (!configured) return undefined;
    let current = true;
    baseMapStyle(configured, language).then((style) => current && setPrepared(style), (error: unknown) => {
      console.error(error);
      if (current) fallBack();
    });
    return () => { current = false; };
  }, [configured, language, fallBack]);

  // a style that never answers (MapLibre waits for it without an error)
  const waiting = !!configured && configured.kind !== 'offline' && !loaded && !fellBack;
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = setTimeout(fallBack, STYLE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [waiting, fallBack]);

  const baseMap = fellBack ? offlineBaseMap() : prepared;
  return {
    baseMap,
    fellBack,
    loaded,
    onStyleData: useCallback(() => setLoaded(true), []),
    onError: useCallback((event: { error: Error }) => {
      console.error(event.error); // what react-map-gl does without a handler
      // errors after the style has loaded (a missing tile) leave the base map as it is
      if (!loaded && baseMap?.kind !== 'offline') fallBack();
    }, [loaded, baseMap?.kind, fallBack]),
  };
}
