// MAP_STYLE and the origins the Content-Security-Policy allows for the base map.
import { describe, expect, it } from 'vitest';
import { mapOrigins } from '../../../server/api/securityHeaders.ts';
import { baseMapFrom, ConfigError, loadConfig } from '../../../server/config.ts';

const KEY = 'AIzaSyA1b2C3d4E5f6G7h8I9j0K-_lMnOpQrStU';

describe('MAP_STYLE', () => {
  it('is OpenFreeMap when unset or empty', () => {
    const openfreemap = { kind: 'openfreemap', url: 'https://tiles.openfreemap.org/styles/liberty' };
    expect(loadConfig({ DATA_DIR: 'memory://' }).baseMap).toEqual(openfreemap);
    expect(baseMapFrom('')).toEqual(openfreemap);
    expect(baseMapFrom(' openfreemap ')).toEqual(openfreemap);
  });

  it('takes the bundled offline map', () => {
    expect(loadConfig({ DATA_DIR: 'memory://', MAP_STYLE: 'offline' }).baseMap).toEqual({ kind: 'offline' });
  });

  it('takes a PMTiles archive with or without the pmtiles:// scheme', () => {
    expect(baseMapFrom('pmtiles://https://tiles.example.com/maps/city.pmtiles')).toEqual({ kind: 'pmtiles', url: 'https://tiles.example.com/maps/city.pmtiles' });
    expect(baseMapFrom('pmtiles://https://tiles.example.com/archive?v=2')).toEqual({ kind: 'pmtiles', url: 'https://tiles.example.com/archive?v=2' });
    expect(baseMapFrom('https://cdn.example.org/planet.PMTiles')).toEqual({ kind: 'pmtiles', url: 'https://cdn.example.org/planet.PMTiles' });
  });

  it('takes MapTiler and Google with a browser key', () => {
    expect(baseMapFrom('maptiler:Ab12Cd34Ef56Gh78Ij90')).toEqual({ kind: 'maptiler', url: 'https://api.maptiler.com/maps/streets-v2/style.json', key: 'Ab12Cd34Ef56Gh78Ij90' });
    expect(baseMapFrom(`google:${KEY}`)).toEqual({ kind: 'google', url: 'https://tile.googleapis.com', key: KEY });
  });

  it('takes any other http(s) URL as a MapLibre style', () => {
    expect(baseMapFrom('https://maps.example.com/styles/bright/style.json')).toEqual({ kind: 'style', url: 'https://maps.example.com/styles/bright/style.json' });
    expect(baseMapFrom('http://10.0.0.5:8080/style.json')).toEqual({ kind: 'style', url: 'http://10.0.0.5:8080/style.json' });
  });

  it('refuses anything else without repeating the value (it may hold a key)', () => {
    const bad = ['Offline', 'mapbox', 'maptiler:', 'maptiler:short', `maptiler:${KEY} `.repeat(2), `google:${KEY}"`, `googel:${KEY}`,
      'ftp://maps.example.com/style.json', 'pmtiles://ftp://x.example.com/a.pmtiles', 'pmtiles://', 'file:///etc/passwd',
      'https://user:secret@maps.example.com/style.json', 'https://maps.example.com/a b.json', 'javascript:alert(1)', 'tiles.example.com/style.json'];
    for (const value of bad) {
      let error: unknown;
      try {
        baseMapFrom(value);
      } catch (caught) {
        error = caught;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as Error).message, value).toMatch(/^MAP_STYLE /);
      expect((error as Error).message, value).not.toContain(KEY);
      expect((error as Error).message, value).not.toContain('secret');
    }
    expect(() => loadConfig({ DATA_DIR: 'memory://', MAP_STYLE: 'satellite' })).toThrow(/MAP_STYLE must be offline, openfreemap, maptiler:<key>, google:<key>/);
  });
});

describe('the base map\'s origins', () => {
  it('are the configured base map\'s origin and MAP_TILE_HOSTS, each once', () => {
    const extra = ['https://fonts.example.com', 'https://sprites.example.com'];
    expect(mapOrigins(baseMapFrom('openfreemap'), [])).toEqual(['https://tiles.openfreemap.org']);
    expect(mapOrigins(baseMapFrom('maptiler:Ab12Cd34Ef56Gh78Ij90'), [])).toEqual(['https://api.maptiler.com']);
    expect(mapOrigins(baseMapFrom(`google:${KEY}`), [])).toEqual(['https://tile.googleapis.com']);
    expect(mapOrigins(baseMapFrom('pmtiles://https://tiles.example.com:8443/city.pmtiles'), [])).toEqual(['https://tiles.example.com:8443']);
    expect(mapOrigins(baseMapFrom('https://maps.example.com/style.json'), [...extra, 'https://maps.example.com'])).toEqual(['https://maps.example.com', ...extra]);
  });

  it('are none for the offline map, whatever MAP_TILE_HOSTS says', () => {
    expect(mapOrigins(baseMapFrom('offline'), ['https://tiles.example.com'])).toEqual([]);
  });

  it('come from the environment through loadConfig', () => {
    const config = loadConfig({ DATA_DIR: 'memory://', MAP_STYLE: 'https://maps.example.com/style.json', MAP_TILE_HOSTS: 'https://tiles.example.com/' });
    expect(mapOrigins(config.baseMap, config.mapTileHosts)).toEqual(['https://maps.example.com', 'https://tiles.example.com']);
  });
});
