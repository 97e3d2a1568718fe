// TRUST_PROXY, MAP_TILE_HOSTS and the TLS settings.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, mapTileHostsFrom, trustProxyFrom } from '../../../server/config.ts';

describe('TRUST_PROXY', () => {
  it('is off by default', () => {
    expect(loadConfig({ DATA_DIR: 'memory://' }).trustProxy).toBe(false);
    for (const off of ['', 'off', 'false', '0']) expect(trustProxyFrom(off)).toBe(false);
  });

  it('takes a hop count or a list of addresses and subnets', () => {
    expect(trustProxyFrom('1')).toBe(1);
    expect(trustProxyFrom('10.0.0.1, 192.168.0.0/16,::1')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1']);
  });

  it('refuses anything else with a plain sentence', () => {
    expect(() => trustProxyFrom('true')).toThrow(ConfigError);
    expect(() => trustProxyFrom('proxy.example.com')).toThrow(/TRUST_PROXY must be off, a hop count or a comma-separated list/);
  });
});

describe('MAP_TILE_HOSTS, TLS_CERT, TLS_KEY, HSTS', () => {
  it('is empty by default and takes a list of origins', () => {
    expect(loadConfig({ DATA_DIR: 'memory://' }).mapTileHosts).toEqual([]);
    expect(mapTileHostsFrom('https://a.example.com, http://10.0.0.5:8080/')).toEqual(['https://a.example.com', 'http://10.0.0.5:8080']);
  });

  it('refuses entries that are not origins', () => {
    for (const bad of ['tiles.example.com', 'ftp://x.example.com', 'https://x.example.com/tiles/{z}', "https://x.example.com; script-src 'unsafe-inline'"]) {
      expect(() => mapTileHostsFrom(bad), bad).toThrow(/MAP_TILE_HOSTS must list origins/);
    }
  });

  it('needs both TLS files, readable, and then sends HSTS', () => {
    expect(loadConfig({ DATA_DIR: 'memory://' }).hsts).toBe(false);
    expect(loadConfig({ DATA_DIR: 'memory://', HSTS: 'on' }).hsts).toBe(true);
    expect(() => loadConfig({ DATA_DIR: 'memory://', TLS_CERT: '/etc/hostname' })).toThrow(/must be set together/);
    expect(() => loadConfig({ DATA_DIR: 'memory://', TLS_CERT: '/nope/cert.pem', TLS_KEY: '/nope/key.pem' })).toThrow('TLS_CERT /nope/cert.pem cannot be read: ENOENT.');
    const config = loadConfig({ DATA_DIR: 'memory://', TLS_CERT: '/etc/hostname', TLS_KEY: '/etc/hostname' });
    expect(config.hsts).toBe(true);
    expect(config.tls?.cert).toBeInstanceOf(Buffer);
  });
});
