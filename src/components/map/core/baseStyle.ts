// The offline base map: water, land and country borders from Natural Earth (world-atlas, bundled),
// with no request to any other host and no glyphs, so it works air-gapped and in tests.
import type { StyleSpecification } from 'maplibre-gl';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries from 'world-atlas/countries-110m.json';

const topology = countries as unknown as Topology<{ countries: GeometryCollection; land: GeometryCollection }>;

export function offlineStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {
      land: { type: 'geojson', data: feature(topology, topology.objects.land), attribution: 'Natural Earth' },
      borders: { type: 'geojson', data: mesh(topology, topology.objects.countries, (a, b) => a !== b) },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': '#c9dcef' } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#eef0e8' } },
      { id: 'borders', type: 'line', source: 'borders', paint: { 'line-color': '#9a9a9a', 'line-width': 1, 'line-dasharray': [2, 2] } },
    ],
  };
}
