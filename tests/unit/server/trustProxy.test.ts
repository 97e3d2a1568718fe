import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, trustProxyFrom } from '../../../server/config.ts';

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
