// Watcher alert tracking (SPEC §4): every user who sees watchers is shown each change of a
// watcher's alert — an error when it goes into alert, a success when it comes back, for 6 s — with
// no notification rule; the states found at the first read are not news.
import { act, cleanup, render } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useWatcherAlertNotifications, watcherLogShown, type WatcherAlertState } from '../../../src/components/layout/useWatcherAlertNotifications.ts';
import { setUpI18n } from '../../../src/i18n/i18n.ts';

beforeAll(async () => {
  await setUpI18n('city').changeLanguage('en');
});
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

function Tracker({ watchers }: { watchers?: WatcherAlertState[] }) {
  useWatcherAlertNotifications(watchers);
  return null;
}
const view = (watchers?: WatcherAlertState[]) => <App><Tracker watchers={watchers} /></App>;
const notices = () => [...document.querySelectorAll('.ant-notification-notice')].map((notice) => ({
  text: notice.textContent, error: !!notice.querySelector('.ant-notification-notice-icon-error'), success: !!notice.querySelector('.ant-notification-notice-icon-success'),
}));

describe('watcher alert notifications', () => {
  it('say nothing of the first read, then an error for a watcher gone into alert and a success for one come back', async () => {
    const screen = render(view([{ id: 1, name: 'Door open', alert: true }, { id: 2, name: 'Power', alert: false }]));
    await act(async () => {});
    expect(notices()).toEqual([]);
    screen.rerender(view([{ id: 1, name: 'Door open', alert: false }, { id: 2, name: 'Power', alert: true }]));
    await vi.waitFor(() => expect(notices()).toHaveLength(2));
    expect(notices()).toEqual(expect.arrayContaining([
      { text: 'Watcher Door open is back to normal', error: false, success: true },
      { text: 'Watcher Power is in alert', error: true, success: false },
    ]));
  });

  it('show a new watcher only when it arrives in alert, and nothing when nothing changed', async () => {
    const screen = render(view([{ id: 1, name: 'Door open', alert: false }]));
    await act(async () => {});
    screen.rerender(view([{ id: 1, name: 'Door open', alert: false }, { id: 3, name: 'Quiet', alert: false }, { id: 4, name: 'Leak', alert: true }]));
    await vi.waitFor(() => expect(notices()).toHaveLength(1));
    expect(notices()[0]).toMatchObject({ text: 'Watcher Leak is in alert', error: true });
  });

  it('say nothing of a watcher whose log the user\'s in-app rule has just shown', async () => {
    const screen = render(view([{ id: 5, name: 'Door open', alert: false }]));
    await act(async () => {});
    watcherLogShown(5);
    screen.rerender(view([{ id: 5, name: 'Door open', alert: true }]));
    await act(async () => {});
    expect(notices()).toEqual([]);
  });
});
