// The configured base map as MapLibre draws it: style URLs, the key of MapTiler, a PMTiles archive
// drawn by its tile type (read from the archive's header), Google's session and tiles.
import type { LayerSpecification, StyleSpecification } from 'maplibre-gl';
import { TileType } from 'pmtiles';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseMapStyle } from '../../../src/components/map/core/baseMaps.ts';
import { archiveStyle } from '../../../src/components/map/core/pmtilesArchive.ts';

afterEach(() => { vi.unstubAllGlobals(); });

/** The first bytes of a PMTiles v3 archive of `tileType` tiles (header and an empty root directory). */
function archiveStart(tileType: TileType): ArrayBuffer {
  const bytes = new ArrayBuffer(128);
  const view = new DataView(bytes);
  new TextEncoder().encodeInto('PMTiles', new Uint8Array(bytes));
  view.setUint8(7, 3); // spec version
  view.setUint32(8, 127, true); // root directory offset
  view.setUint32(16, 1, true); // root directory length: one byte, zero entries
  view.setUint8(97, 1); // internal compression: none
  view.setUint8(99, tileType);
  view.setUint8(101, 14); // max zoom
  return bytes;
}

function serveArchive(url: string, tileType: TileType) {
  const fetch = vi.fn(async (request: string | URL | Request) => {
    expect(String(request)).toBe(url);
    return new Response(archiveStart(tileType), { status: 206 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const layerTypes = (style: StyleSpecification) => new Set(style.layers.map((layer) => layer.type));

describe('base map styles', () => {
  it('draws the offline map from bundled data, with no URL at all', async () => {
    const { kind, style } = await baseMapStyle({ kind: 'offline' }, 'en');
    expect(kind).toBe('offline');
    expect(JSON.stringify(style)).not.toMatch(/https?:/);
  });

  it('hands OpenFreeMap and a custom style to MapLibre by URL', async () => {
    expect(await baseMapStyle({ kind: 'openfreemap', url: 'https://tiles.openfreemap.org/styles/liberty' }, 'en'))
      .toEqual({ kind: 'openfreemap', style: 'https://tiles.openfreemap.org/styles/liberty' });
    expect(await baseMapStyle({ kind: 'style', url: 'https://maps.example.com/style.json?v=2' }, 'en'))
      .toEqual({ kind: 'style', style: 'https://maps.example.com/style.json?v=2' });
  });

  it('loads MapTiler\'s style with the key', async () => {
    expect(await baseMapStyle({ kind: 'maptiler', url: 'https://api.maptiler.com/maps/streets-v2/style.json', key: 'Ab12Cd34Ef56Gh78Ij90' }, 'en'))
      .toEqual({ kind: 'maptiler', style: 'https://api.maptiler.com/maps/streets-v2/style.json?key=Ab12Cd34Ef56Gh78Ij90' });
    await expect(baseMapStyle({ kind: 'maptiler', url: 'https://api.maptiler.com/maps/streets-v2/style.json' }, 'en')).rejects.toThrow(/no key/);
  });

  it('draws a raster PMTiles archive as one raster layer', async () => {
    const url = 'https://cdn.example.org/orthophoto.pmtiles';
    const fetch = serveArchive(url, TileType.Webp);
    const { kind, style } = await baseMapStyle({ kind: 'pmtiles', url }, 'sk');
    expect(fetch).toHaveBeenCalled();
    expect(kind).toBe('pmtiles');
    expect((style as StyleSpecification).sources).toEqual({ basemap: { type: 'raster', url: `pmtiles://${url}`, tileSize: 256 } });
    expect(layerTypes(style as StyleSpecification)).toEqual(new Set(['raster']));
  });

  it('draws a vector PMTiles archive with the Protomaps layers, labelled in the language without a glyphs or sprite host', async () => {
    const url = 'https://cdn.example.org/city.pmtiles';
    serveArchive(url, TileType.Mvt);
    const style = (await baseMapStyle({ kind: 'pmtiles', url }, 'sk')).style as StyleSpecification;
    expect(style.sources).toEqual({ basemap: { type: 'vector', url: `pmtiles://${url}` } });
    expect(style.glyphs).toBeUndefined();
    expect(style.sprite).toBeUndefined();
    expect(layerTypes(style)).toEqual(new Set(['background', 'fill', 'line', 'symbol']));
    const symbols = style.layers.filter((layer): layer is Extract<LayerSpecification, { type: 'symbol' }> => layer.type === 'symbol');
    expect(symbols.length).toBeGreaterThan(5);
    for (const layer of symbols) {
      expect(Object.keys(layer.layout ?? {}).filter((property) => property.startsWith('icon-')), layer.id).toEqual([]);
      expect(layer.layout?.['text-field'], layer.id).toBeDefined();
    }
    expect(JSON.stringify(symbols)).toContain('name:sk');
    expect(style.layers.every((layer) => layer.type === 'background' || ('source' in layer && layer.source === 'basemap'))).toBe(true);
  });

  it('reads MapLibre Tiles archives as vector tiles and refuses an unknown tile type', () => {
    expect(archiveStyle('https://x.example.org/a.pmtiles', TileType.Mlt, 'en').sources.basemap).toEqual({ type: 'vector', url: 'pmtiles://https://x.example.org/a.pmtiles', encoding: 'mlt' });
    expect(() => archiveStyle('https://x.example.org/a.pmtiles', TileType.Unknown, 'en')).toThrow(/unknown type/);
  });

  it('rejects an archive that cannot be read (then the map falls back)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('not found', { status: 404 })));
    await expect(baseMapStyle({ kind: 'pmtiles', url: 'https://cdn.example.org/missing.pmtiles' }, 'en')).rejects.toThrow();
  });

  it('opens a Google Map Tiles session for the roadmap and draws its tiles with the session and the key, attributed', async () => {
    const fetch = vi.fn(async (..._request: [string, RequestInit]) => Response.json({ session: 'IgAB-session', expiry: '1767225600', tileWidth: 256, tileHeight: 256, imageFormat: 'png' }));
    vi.stubGlobal('fetch', fetch);
    const { kind, style } = await baseMapStyle({ kind: 'google', url: 'https://tile.googleapis.com', key: 'AIzaSy-key_1234' }, 'sk');
    expect(kind).toBe('google');
    const [[address, init]] = fetch.mock.calls;
    expect(address).toBe('https://tile.googleapis.com/v1/createSession?key=AIzaSy-key_1234');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ mapType: 'roadmap', language: 'sk', region: 'SK' });
    expect((style as StyleSpecification).sources.google).toEqual({
      type: 'raster',
      tiles: ['https://tile.googleapis.com/v1/2dtiles/{z}/{x}/{y}?session=IgAB-session&key=AIzaSy-key_1234'],
      tileSize: 256,
      maxzoom: 22,
      attribution: expect.stringContaining('Google'),
    });
  });

  it('rejects when Google refuses the session', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ error: { code: 403 } }, { status: 403 })));
    await expect(baseMapStyle({ kind: 'google', url: 'https://tile.googleapis.com', key: 'AIzaSy-key_1234' }, 'en')).rejects.toThrow(/403/);
  });
});
