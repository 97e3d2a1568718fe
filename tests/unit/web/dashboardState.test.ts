// The dashboard state kept in local storage per tenant and user: written and read back whole;
// bad JSON, wrong types and out-of-range parts are dropped, the valid rest is kept.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RULES } from '../../../src/shared/map/ruleConditions.ts';
import { MAX_GROUPS } from '../../../src/components/map/core/groupColours.ts';
import {
  dashboardStateKey, EMPTY_DASHBOARD_STATE, readDashboardState, writeDashboardState, type DashboardState,
} from '../../../src/pages/dashboard/dashboardState.ts';

const key = dashboardStateKey('tenant-a', 'user-1');
const rule = { operator: '>', value: 30, colour: '#cf1322' } as const;
const state: DashboardState = { level: 2, groups: [3, 1], attribute: 'temperature', rules: { temperature: { rules: [rule], otherwise: '#595959' } }, filtersOpen: true };

afterEach(() => localStorage.clear());

describe('dashboard state', () => {
  it('reads back what was written, apart per tenant and user', () => {
    writeDashboardState(key, state);
    expect(readDashboardState(key)).toEqual(state);
    expect(readDashboardState(dashboardStateKey('tenant-a', 'user-2'))).toEqual(EMPTY_DASHBOARD_STATE);
    expect(readDashboardState(dashboardStateKey('tenant-b', 'user-1'))).toEqual(EMPTY_DASHBOARD_STATE);
  });

  it('ignores stored text that is not a state', () => {
    for (const text of ['{', 'null', '42', '"text"', '[1,2]', 'undefined', '{"__proto__": {"level": 3}}']) {
      localStorage.setItem(key, text);
      expect(readDashboardState(key), text).toEqual(EMPTY_DASHBOARD_STATE);
    }
  });

  it('keeps the valid parts and drops the rest', () => {
    localStorage.setItem(key, JSON.stringify({
      level: 1.5,
      groups: [4, 'x', -1, 0, 4, 2 ** 31, 5],
      attribute: 'a\u0000b',
      rules: {
        humidity: { rules: [rule], otherwise: '#595959' },
        co2: { rules: [{ ...rule, value: 'high' }], otherwise: '#595959' },
        lux: { rules: [rule], otherwise: 'url(x)' },
        power: { rules: Array(MAX_RULES + 1).fill(rule), otherwise: '#595959' },
        '': { rules: [], otherwise: '#595959' },
      },
    }));
    expect(readDashboardState(key)).toEqual({ groups: [4, 5], rules: { humidity: { rules: [rule], otherwise: '#595959' } } });
    localStorage.setItem(key, JSON.stringify({ level: 100_000, groups: Array.from({ length: 50 }, (_, i) => i + 1), attribute: 'x'.repeat(256) }));
    expect(readDashboardState(key)).toEqual({ groups: Array.from({ length: MAX_GROUPS }, (_, i) => i + 1), rules: {} });
    localStorage.setItem(key, JSON.stringify({ level: -3, groups: 'all', rules: [], filtersOpen: 'yes' }));
    expect(readDashboardState(key)).toEqual({ level: -3, groups: [], rules: {} });
    localStorage.setItem(key, JSON.stringify({ filtersOpen: false }));
    expect(readDashboardState(key)).toEqual({ groups: [], rules: {}, filtersOpen: false });
  });
});

describe('signing out', () => {
  it('clears every user\'s dashboard state and keeps the device\'s map rotation', async () => {
    const { clearSession } = await import('../../../src/session/sessionReset.ts');
    localStorage.setItem(dashboardStateKey('tenant-a', 'user-1'), JSON.stringify({ level: 1 }));
    localStorage.setItem(dashboardStateKey('tenant-b', 'user-2'), JSON.stringify({ level: 2 }));
    localStorage.setItem('terrasight.map.bearing', '30');
    clearSession();
    expect(readDashboardState(dashboardStateKey('tenant-a', 'user-1'))).toEqual(EMPTY_DASHBOARD_STATE);
    expect(Object.keys(localStorage).filter((stored) => stored.startsWith('terrasight.dashboard.'))).toEqual([]);
    expect(localStorage.getItem('terrasight.map.bearing')).toBe('30');
  });
});
