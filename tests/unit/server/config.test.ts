import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, dayZonesFrom, demoHistoryDaysFrom, loadConfig, mqttMaxConnectionsFrom, poolSizeFrom, retentionDaysFrom, shutdownDrainFrom, statementTimeoutFrom } from '../../../server/config.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'terrasight-config-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

describe('loadConfig', () => {
  it('defaults to port 3000, 127.0.0.1, MQTT 1883, the demo seed with simulation', () => {
    const config = loadConfig({ DATA_DIR: 'memory://' });
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', mqttPort: 1883, seed: 'demo', simulate: true, dataDir: 'memory://' });
    expect(config.databaseUrl).toBeUndefined();
  });

  it('turns simulation off by default without the demo seed', () => {
    expect(loadConfig({ DATA_DIR: 'memory://', SEED: 'none' }).simulate).toBe(false);
  });

  it('generates the signing key once into the data directory and reuses it', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8')).toBe(first);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
  });

  it('requires a strong JWT_SECRET with DATABASE_URL', () => {
    const url = 'postgres://localhost/terrasight';
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: url, JWT_SECRET: 'short' })).toThrow(/at least 32/);
    expect(() => loadConfig({ DATABASE_URL: url, JWT_SECRET: 'changeme' })).toThrow(ConfigError);
    expect(loadConfig({ DATABASE_URL: url, JWT_SECRET: 'x'.repeat(40) }).databaseUrl).toBe(url);
  });

  it('refuses a bad port or seed with a clear message', () => {
    expect(() => loadConfig({ DATA_DIR: 'memory://', PORT: 'eighty' })).toThrow('PORT must be a port number, got "eighty".');
    expect(() => loadConfig({ DATA_DIR: 'memory://', SEED: 'lots' })).toThrow('SEED must be "demo" or "none"');
  });
});

describe('statementTimeoutFrom (STATEMENT_TIMEOUT_MS)', () => {
  it('is 5 s unless set, and reads milliseconds from 100 to 10 minutes', () => {
    expect(statementTimeoutFrom(undefined)).toBe(5_000);
    expect(statementTimeoutFrom('')).toBe(5_000);
    expect(statementTimeoutFrom(' 250 ')).toBe(250);
    expect(statementTimeoutFrom('600000')).toBe(600_000);
  });

  it.each(['99', '600001', '1.5', '-1', '5s', 'off'])('refuses %j with a clear message', (raw) => {
    expect(() => statementTimeoutFrom(raw)).toThrow(ConfigError);
    expect(() => statementTimeoutFrom(raw)).toThrow(/STATEMENT_TIMEOUT_MS must be a number of milliseconds from 100 to 600000/);
  });
});

describe('poolSizeFrom (DATABASE_POOL_SIZE)', () => {
  it('is 10 connections unless set, and at most 19 (the listener makes an instance\'s 20)', () => {
    expect(poolSizeFrom(undefined)).toBe(10);
    expect(poolSizeFrom(' 4 ')).toBe(4);
    expect(poolSizeFrom('19')).toBe(19);
    expect(loadConfig({ DATA_DIR: 'memory://', DATABASE_POOL_SIZE: '6' }).poolSize).toBe(6);
  });

  it.each(['0', '20', '2.5', '-1', 'many'])('refuses %j with a clear message', (raw) => {
    expect(() => poolSizeFrom(raw)).toThrow(ConfigError);
    expect(() => poolSizeFrom(raw)).toThrow(/DATABASE_POOL_SIZE must be a number of connections from 1 to 19/);
  });
});

describe('mqttMaxConnectionsFrom (MQTT_MAX_CONNECTIONS)', () => {
  it('is 100,000 devices unless set', () => {
    expect(mqttMaxConnectionsFrom(undefined)).toBe(100_000);
    expect(mqttMaxConnectionsFrom('250000')).toBe(250_000);
    expect(loadConfig({ DATA_DIR: 'memory://', MQTT_MAX_CONNECTIONS: '5000' }).mqttMaxConnections).toBe(5_000);
  });

  it.each(['0', '1000001', '1.5', 'lots'])('refuses %j with a clear message', (raw) => {
    expect(() => mqttMaxConnectionsFrom(raw)).toThrow(/MQTT_MAX_CONNECTIONS must be a number of connections from 1 to 1000000/);
  });
});

describe('shutdownDrainFrom (SHUTDOWN_DRAIN_MS)', () => {
  it('is no drain unless set, and at most 5 s (within the 9 s a shutdown may take)', () => {
    expect(shutdownDrainFrom(undefined)).toBe(0);
    expect(shutdownDrainFrom('2000')).toBe(2_000);
    expect(shutdownDrainFrom('5000')).toBe(5_000);
    expect(loadConfig({ DATA_DIR: 'memory://', SHUTDOWN_DRAIN_MS: '1500' }).shutdownDrainMs).toBe(1_500);
  });

  it.each(['5001', '-1', '1.5', '2s'])('refuses %j with a clear message', (raw) => {
    expect(() => shutdownDrainFrom(raw)).toThrow(/SHUTDOWN_DRAIN_MS must be a number of milliseconds from 0 to 5000/);
  });
});

describe('demoHistoryDaysFrom (DEMO_HISTORY_DAYS)', () => {
  it('is 30 days unless set, from none to a year', () => {
    expect(demoHistoryDaysFrom(undefined)).toBe(30);
    expect(demoHistoryDaysFrom('0')).toBe(0);
    expect(demoHistoryDaysFrom('366')).toBe(366);
    expect(loadConfig({ DATA_DIR: 'memory://', DEMO_HISTORY_DAYS: '1' }).demoHistoryDays).toBe(1);
  });

  it.each(['367', '-1', '1.5', 'week'])('refuses %j with a clear message', (raw) => {
    expect(() => demoHistoryDaysFrom(raw)).toThrow(/DEMO_HISTORY_DAYS must be a number of days from 0 to 366/);
  });
});

describe('retentionDaysFrom (TELEMETRY_RETENTION_DAYS)', () => {
  it('keeps everything when unset, empty or "keep"', () => {
    expect(retentionDaysFrom(undefined)).toBeUndefined();
    expect(retentionDaysFrom('')).toBeUndefined();
    expect(retentionDaysFrom('  ')).toBeUndefined();
    expect(retentionDaysFrom('keep')).toBeUndefined();
    expect(retentionDaysFrom(' keep ')).toBeUndefined();
  });

  it('reads a whole number of days from 1 to 36500', () => {
    expect(retentionDaysFrom('30')).toBe(30);
    expect(retentionDaysFrom(' 30 ')).toBe(30);
    expect(retentionDaysFrom('1')).toBe(1);
    expect(retentionDaysFrom('036')).toBe(36);
    expect(retentionDaysFrom('36500')).toBe(36_500);
  });

  it('refuses anything else with a clear message', () => {
    for (const raw of ['0', '-1', 'abc', '40000', '36501', '1.5', '30d', '1e3', '+30', 'KEEP', 'never']) {
      expect(() => retentionDaysFrom(raw), raw).toThrow(ConfigError);
      expect(() => retentionDaysFrom(raw), raw)
        .toThrow(`TELEMETRY_RETENTION_DAYS must be a number of days from 1 to 36500 (or "keep"), got "${raw}".`);
    }
  });
});

describe('dayZonesFrom (TELEMETRY_DAY_ZONES)', () => {
  it('keeps Bratislava\'s local days unless told otherwise; "none" or empty keeps none', () => {
    expect(dayZonesFrom(undefined)).toEqual(['Europe/Bratislava']);
    expect(dayZonesFrom('none')).toEqual([]);
    expect(dayZonesFrom(' ')).toEqual([]);
  });

  it('reads IANA names in their own letter case, each once', () => {
    expect(dayZonesFrom('europe/prague, Asia/Kolkata,Asia/Kathmandu ,Europe/Prague')).toEqual(['Europe/Prague', 'Asia/Kolkata', 'Asia/Kathmandu']);
  });

  it('refuses unknown names, zones whose offset is not a multiple of 15 minutes, and long lists', () => {
    expect(() => dayZonesFrom('Mars/Olympus')).toThrow('TELEMETRY_DAY_ZONES must list IANA time zone names such as Europe/Bratislava ("Mars/Olympus" is not one), got "Mars/Olympus".');
    expect(() => dayZonesFrom('Europe/Bratislava;DROP')).toThrow(ConfigError);
    // Liberia kept -0:44:30 until 1972, so a history from 2000 on is fine there
    expect(dayZonesFrom('Africa/Monrovia')).toEqual(['Africa/Monrovia']);
    const nine = 'Europe/Prague,Europe/Berlin,Europe/Vienna,Europe/Lisbon,Asia/Seoul,Asia/Tokyo,America/New_York,America/Chicago,Australia/Sydney';
    expect(() => dayZonesFrom(nine)).toThrow('TELEMETRY_DAY_ZONES lists at most 8 time zones');
  });
});

describe('loadConfig: TELEMETRY_RETENTION_DAYS', () => {
  it('keeps all telemetry unless told otherwise', () => {
    expect(loadConfig({ DATA_DIR: 'memory://' }).telemetryRetentionDays).toBeUndefined();
    expect(loadConfig({ DATA_DIR: 'memory://', TELEMETRY_RETENTION_DAYS: 'keep' }).telemetryRetentionDays).toBeUndefined();
  });

  it('reads a number of days', () => {
    expect(loadConfig({ DATA_DIR: 'memory://', TELEMETRY_RETENTION_DAYS: '30' }).telemetryRetentionDays).toBe(30);
  });

  it('refuses 0, negative, non-numeric and too large values', () => {
    for (const raw of ['0', '-1', 'abc', '40000']) {
      expect(() => loadConfig({ DATA_DIR: 'memory://', TELEMETRY_RETENTION_DAYS: raw }), raw).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: 'memory://', TELEMETRY_RETENTION_DAYS: raw }), raw).toThrow(`got "${raw}".`);
    }
  });
});
