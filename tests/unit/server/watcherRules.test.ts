// A watcher's condition on a value (every operator and threshold kind) and a watch's state machine
// (alert at once or after `for`, back to normal, no data and data again).
import { describe, expect, it } from 'vitest';
import { conditionHolds, type WatcherCondition } from '../../../server/engines/watchers/watcherCondition.ts';
import { isAlerting, step, type WatchState } from '../../../server/engines/watchers/watchState.ts';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const holds = (condition: WatcherCondition, value: unknown) => conditionHolds(condition, value as never, NOW);

describe('conditionHolds', () => {
  it('numbers: every operator, between including both ends', () => {
    const number = (operator: WatcherCondition['operator'], value: number, value_to?: number): WatcherCondition => ({ operator, kind: 'number', value, value_to });
    expect([holds(number('>', 50), 82), holds(number('>', 50), 50), holds(number('>=', 50), 50), holds(number('<', 50), 49.9), holds(number('<=', 50), 51)])
      .toEqual([true, false, true, true, false]);
    expect([holds(number('==', 5), 5), holds(number('!=', 5), 5), holds(number('!=', 5), 6)]).toEqual([true, false, true]);
    expect([10, 20, 30, 9.99, 30.01].map((value) => holds(number('between', 10, 30), value))).toEqual([true, true, true, false, false]);
  });

  it('a value of another type than the threshold never holds', () => {
    expect(holds({ operator: '>', kind: 'number', value: 50 }, '82')).toBe(false);
    expect(holds({ operator: '==', kind: 'string', value: 'on' }, true)).toBe(false);
    expect(holds({ operator: '!=', kind: 'number', value: 5 }, null)).toBe(false);
  });

  it('strings, booleans and null', () => {
    expect(holds({ operator: '==', kind: 'string', value: 'fault' }, 'fault')).toBe(true);
    expect(holds({ operator: '!=', kind: 'string', value: 'ok' }, 'fault')).toBe(true);
    expect(holds({ operator: '==', kind: 'boolean', value: true }, true)).toBe(true);
    expect(holds({ operator: '==', kind: 'boolean', value: true }, false)).toBe(false);
    expect(holds({ operator: '==', kind: 'null' }, null)).toBe(true);
    expect(holds({ operator: '==', kind: 'null' }, 3)).toBe(false);
    expect(holds({ operator: '!=', kind: 'null' }, 'x')).toBe(true);
  });

  it('dates against a date and against now', () => {
    expect(holds({ operator: '<', kind: 'date', value: '2026-11-24T00:00:00Z' }, '2026-11-23T10:00:00Z')).toBe(true);
    expect(holds({ operator: '<', kind: 'now' }, '2026-11-24T11:59:00Z')).toBe(true);
    expect(holds({ operator: '>', kind: 'now' }, '2026-11-24T11:59:00Z')).toBe(false);
    expect(holds({ operator: '<', kind: 'date', value: '2026-11-24T00:00:00Z' }, 'not a date')).toBe(false);
  });
});

describe('step', () => {
  const normal: WatchState = { state: 'normal', since: NOW - 60_000 };

  it('alerts at once without `for`, stays alerting while it holds, recovers when it stops', () => {
    const alerted = step(normal, { holds: true }, NOW, 0);
    expect(alerted).toEqual({ next: { state: 'alerting', since: NOW }, transition: 'alert' });
    expect(step(alerted.next, { holds: true }, NOW + 1_000, 0).transition).toBeUndefined();
    expect(step(alerted.next, { holds: false }, NOW + 2_000, 0)).toEqual({ next: { state: 'normal', since: NOW + 2_000 }, transition: 'recover' });
    expect(step(normal, { holds: false }, NOW, 0).next).toBe(normal);
  });

  it('with `for`: pending first, alerting once the time is up (no new value needed), nothing logged if it stops before', () => {
    const pending = step(normal, { holds: true }, NOW, 30_000);
    expect(pending).toEqual({ next: { state: 'pending', since: NOW } });
    expect(step(pending.next, { holds: true }, NOW + 29_999, 30_000).next).toBe(pending.next);
    expect(step(pending.next, { holds: true }, NOW + 30_000, 30_000)).toEqual({ next: { state: 'alerting', since: NOW + 30_000 }, transition: 'alert' });
    expect(step(pending.next, { holds: false }, NOW + 10_000, 30_000)).toEqual({ next: { state: 'normal', since: NOW + 10_000 } });
    expect(isAlerting('pending')).toBe(false);
  });

  it('no data, once; data again from no data', () => {
    const silent = step(normal, 'no_data', NOW, 0);
    expect(silent).toEqual({ next: { state: 'no_data', since: NOW }, transition: 'no_data' });
    expect(isAlerting('no_data')).toBe(true);
    expect(step(silent.next, 'no_data', NOW + 60_000, 0).transition).toBeUndefined();
    expect(step(silent.next, { holds: false }, NOW + 1, 0)).toEqual({ next: { state: 'normal', since: NOW + 1 }, transition: 'data_back' });
    expect(step(silent.next, { holds: true }, NOW + 1, 0).transition).toBe('alert');
    expect(step(step(normal, { holds: true }, NOW, 0).next, 'no_data', NOW + 5, 0).transition).toBe('no_data');
  });
});
