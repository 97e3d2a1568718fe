// What the entity layers show on screen, written on the map's element whenever the map settles:
// how many entities — the members of the server's clusters included — at which levels and in which
// colours (data-visible-entities, data-visible-levels, data-visible-colours). The browser tests
// read what a user sees from it.
import type { MapGeoJSONFeature } from 'maplibre-gl';
import { useEffect } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import { SERVER_CLUSTER_LAYER } from './clusterFeatures.ts';

interface Rgba { r: number; g: number; b: number; a: number }

/** #rrggbb of a colour as MapLibre evaluates it (premultiplied by its alpha). */
function hexOf(colour: unknown): string | undefined {
  if (typeof colour === 'string') return colour.toLowerCase();
  if (!colour || typeof colour !== 'object' || !('r' in colour)) return undefined;
  const { r, g, b, a } = colour as Rgba;
  const byte = (channel: number) => Math.round((a ? channel / a : channel) * 255).toString(16).padStart(2, '0');
  return `#${byte(r)}${byte(g)}${byte(b)}`;
}

export function renderedSummary(features: readonly MapGeoJSONFeature[]): { entities: number; levels: number[]; colours: string[] } {
  const ids = new Set<unknown>();
  const levels = new Set<number>();
  const colours = new Set<string>();
  let clustered = 0;
  for (const feature of features) {
    if (feature.layer.id === SERVER_CLUSTER_LAYER) {
      clustered += Number(feature.properties.count) || 0;
      continue;
    }
    ids.add(feature.id);
    if (typeof feature.properties.level === 'number') levels.add(feature.properties.level);
    const paint = feature.layer.paint as Record<string, unknown> | undefined;
    const colour = hexOf(paint?.['circle-color'] ?? paint?.['fill-color']);
    if (colour) colours.add(colour);
  }
  return { entities: ids.size + clustered, levels: [...levels].sort((a, b) => a - b), colours: [...colours].sort() };
}

export function useRenderedSummary(layers: readonly string[]): void {
  const { current: map } = useMap();
  useEffect(() => {
    if (!map) return undefined;
    const write = () => {
      const shown = layers.filter((layer) => map.getLayer(layer));
      const summary = renderedSummary(shown.length ? map.queryRenderedFeatures({ layers: shown }) : []);
      const element = map.getContainer();
      element.dataset.visibleEntities = String(summary.entities);
      element.dataset.visibleLevels = summary.levels.join(',');
      element.dataset.visibleColours = summary.colours.join(',');
    };
    map.on('idle', write);
    return () => { map.off('idle', write); };
  }, [map, layers]);
}
