// A PMTiles archive as the base map: one file on any static host, read with HTTP range requests
// through the `pmtiles://` protocol. A raster archive is one raster layer; a vector archive (the
// Protomaps basemap schema) gets the @protomaps/basemaps layers. That style has no `glyphs`, so
// MapLibre draws the labels with the browser's own fonts and no font host is needed; its icons
// would need a sprite host, so they are left out.
import { layers, namedFlavor } from '@protomaps/basemaps';
import { addProtocol, type LayerSpecification, type StyleSpecification } from 'maplibre-gl';
import { PMTiles, Protocol, TileType } from 'pmtiles';

const SOURCE = 'basemap';
/** Raster archives carry no tile size; 256 px is what XYZ tile sets are cut to. */
const RASTER_TILE_SIZE = 256;
const RASTER_TYPES = [TileType.Png, TileType.Jpeg, TileType.Webp, TileType.Avif];

let protocol: Protocol | undefined;

/** The `pmtiles://` protocol, added to MapLibre once (with the archives' metadata, for their attribution). */
function pmtilesProtocol(): Protocol {
  if (!protocol) {
    protocol = new Protocol({ metadata: true });
    addProtocol('pmtiles', protocol.tile);
  }
  return protocol;
}

/** Reads the archive's header (its tile type) and answers the style that draws it. */
export async function pmtilesStyle(url: string, language: string): Promise<StyleSpecification> {
  const archives = pmtilesProtocol();
  let archive = archives.get(url);
  if (!archive) {
    archive = new PMTiles(url);
    archives.add(archive); // the map's tile requests reuse the header read here
  }
  const { tileType } = await archive.getHeader();
  return archiveStyle(url, tileType, language);
}

export function archiveStyle(url: string, tileType: TileType, language: string): StyleSpecification {
  const tiles = `pmtiles://${url}`;
  if (RASTER_TYPES.includes(tileType)) {
    return {
      version: 8,
      sources: { [SOURCE]: { type: 'raster', url: tiles, tileSize: RASTER_TILE_SIZE } },
      layers: [{ id: 'basemap-raster', type: 'raster', source: SOURCE }],
    };
  }
  if (tileType === TileType.Mvt || tileType === TileType.Mlt) {
    return {
      version: 8,
      sources: { [SOURCE]: { type: 'vector', url: tiles, ...(tileType === TileType.Mlt ? { encoding: 'mlt' as const } : {}) } },
      layers: withoutIcons(layers(SOURCE, namedFlavor('light'), { lang: language }) as LayerSpecification[]),
    };
  }
  throw new Error(`The PMTiles archive holds tiles of an unknown type (${tileType}).`);
}

/** Symbol layers without their icons; a layer left with nothing to draw is dropped. */
function withoutIcons(all: LayerSpecification[]): LayerSpecification[] {
  return all.flatMap((layer) => {
    if (layer.type !== 'symbol' || !layer.layout) return [layer];
    const layout = Object.fromEntries(Object.entries(layer.layout).filter(([property]) => !property.startsWith('icon-')));
    return 'text-field' in layout ? [{ ...layer, layout }] : [];
  });
}
