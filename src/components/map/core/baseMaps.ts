// The configured base map (GET /map-config) as what MapLibre draws: the URL of a style it loads
// itself, or a style built here (the offline map, a PMTiles archive, Google's tiles).
import type { StyleSpecification } from 'maplibre-gl';
import type { BaseMap, BaseMapKind } from '../../../schemas/mapConfig.ts';
import { offlineStyle } from './baseStyle.ts';
import { googleStyle } from './googleTiles.ts';

export interface BaseMapStyle {
  kind: BaseMapKind;
  style: StyleSpecification | string;
}

let offline: BaseMapStyle | undefined;
/** The bundled map, built once: the same style object is not drawn again when nothing changed. */
export const offlineBaseMap = (): BaseMapStyle => (offline ??= { kind: 'offline', style: offlineStyle() });

/** Answers the style of a base map; rejects when it cannot be prepared (an archive or a session that fails). */
export async function baseMapStyle({ kind, url, key }: BaseMap, language: string): Promise<BaseMapStyle> {
  const given = (value: string | undefined, what: 'URL' | 'key') => {
    if (!value) throw new Error(`The ${kind} base map has no ${what}.`);
    return value;
  };
  switch (kind) {
    case 'offline':
      return offlineBaseMap();
    case 'openfreemap':
    case 'style':
      return { kind, style: given(url, 'URL') };
    case 'maptiler': {
      const style = new URL(given(url, 'URL'));
      style.searchParams.set('key', given(key, 'key'));
      return { kind, style: style.href };
    }
    case 'pmtiles': {
      // loaded only for an archive: the PMTiles reader and the Protomaps layers are not small
      const { pmtilesStyle } = await import('./pmtilesArchive.ts');
      return { kind, style: await pmtilesStyle(given(url, 'URL'), language) };
    }
    case 'google':
      return { kind, style: await googleStyle(given(url, 'URL'), given(key, 'key'), language) };
  }
}
