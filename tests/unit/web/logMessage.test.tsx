// A log's message as the log list and drawer show it: an engine's log told again in the reader's
// language from its data (entity and key names, numbers as the language writes them), any other
// log as stored; values of a device stay text.
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { LogMessage } from '../../../src/components/LogMessage.tsx';

let i18n: ReturnType<typeof setUpI18n>;
beforeAll(async () => {
  i18n = setUpI18n('facility');
  await i18n.changeLanguage('en');
});
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

const alert = {
  source_id: 3, watcher: 'Lamp power high', entity: { en: 'Street lamp 1-3', de: 'Straßenlampe 1-3' }, transition: 'alert',
  key: 'power', value: 82.5, operator: '>', kind: 'number', threshold: 50, interval: 60,
};
const shown = (props: Parameters<typeof LogMessage>[0]) => render(<LogMessage {...props} />).container.textContent;

describe('LogMessage', () => {
  it("tells a watcher's transition in the interface language", async () => {
    expect(shown({ message: 'stored', source: 'watcher', data: alert })).toBe('Street lamp 1-3: Power 82.5 > 50 (Lamp power high)');
    await i18n.changeLanguage('de');
    expect(shown({ message: 'stored', source: 'watcher', data: alert })).toBe('Straßenlampe 1-3: Leistung 82,5 > 50 (Lamp power high)');
    expect(shown({ message: 'stored', source: 'watcher', data: { ...alert, transition: 'no_data' } })).toBe('Straßenlampe 1-3: keine Leistung-Daten seit 60 s (Lamp power high)');
  });

  it('between, and a value of a device that looks like markup, stay text', async () => {
    const text = shown({ message: 'stored', source: 'watcher', data: { ...alert, operator: 'between', threshold: 10, threshold_to: 20, value: '<img src=x onerror=alert(1)>', kind: 'string' } });
    expect(text).toBe('Street lamp 1-3: Power "<img src=x onerror=alert(1)>" between 10 and 20 (Lamp power high)');
    expect(document.querySelector('img')).toBeNull();
  });

  it("tells a scheduler's run, counting the entities; any other log as stored", async () => {
    expect(shown({ message: 'stored', source: 'scheduler', data: { scheduler: 'Weekly energy', result: 'ok', entities: 3, attribute: 'energy_last_week' } }))
      .toBe('Weekly energy: wrote energy_last_week of 3 entities');
    const failed = { scheduler: 'Weekly energy', result: 'failed', failures: 3, reason: 'timeout', entities: 0, attribute: 'energy_last_week' };
    expect(shown({ message: 'stored', source: 'scheduler', data: failed }))
      .toBe('Weekly energy: the run failed 3 times (it took longer than the database allows); it is not tried again');
    await i18n.changeLanguage('sk');
    expect(shown({ message: 'stored', source: 'scheduler', data: { ...failed, reason: '<b>new</b>' } }))
      .toBe('Weekly energy: beh zlyhal 3-krát (neočakávaná chyba, pozrite záznam servera); už sa neopakuje');
    await i18n.changeLanguage('en');
    expect(shown({ message: 'Lamp not responding', source: 'entity', data: {} })).toBe('Lamp not responding');
    expect(shown({ message: 'Odd', source: 'watcher', data: { transition: 'unknown' } })).toBe('Odd');
  });

  it("tells a lighting override and its end, and a device's failed command, the device's own words kept as text", async () => {
    expect(shown({ message: 'stored', source: 'profile', data: { event: 'override', lamps: 3, level: 70, minutes: 30 } }))
      .toBe('Lighting override: lamps 3 at 70 % for 30 min');
    expect(shown({ message: 'stored', source: 'profile', data: { event: 'override_end', lamps: 1 } }))
      .toBe('Lighting override ended: lamps 1 follow their profile again');
    const failed = { event: 'command_failed', entity: { en: 'Street lamp 1-3', de: 'Straßenlampe 1-3' }, method: 'setDim', reason: '<b>driver fault</b>' };
    await i18n.changeLanguage('de');
    expect(shown({ message: 'stored', source: 'entity', data: failed })).toBe('Straßenlampe 1-3: der Befehl setDim ist fehlgeschlagen (<b>driver fault</b>)');
    expect(document.querySelector('b')).toBeNull();
  });

  it('says a maintenance window\'s change, start and end in the interface language, and that a muted alert was not sent', async () => {
    const data = { maintenance_window: 'Night works', mode: 'read-only' };
    expect(shown({ message: 'stored', source: 'user', data: { ...data, action: 'scheduled' } })).toBe('Maintenance window "Night works" (Read-only) scheduled');
    expect(shown({ message: 'stored', source: 'system', data: { ...data, action: 'ended' } })).toBe('Maintenance window "Night works" (Read-only) ended');
    expect(shown({ message: 'stored', source: 'watcher', data: { ...alert, notified: false } })).toBe('Street lamp 1-3: Power 82.5 > 50 (Lamp power high) (not sent: notifications off for maintenance)');
    await i18n.changeLanguage('sk');
    expect(shown({ message: 'stored', source: 'system', data: { ...data, action: 'started' } })).toBe('Okno údržby „Night works“ (Iba na čítanie) začalo');
  });
});
