// The watcher bell: a value a device sends with mosquitto_pub turns a watcher red; the bell's count
// rises at once (live, with the page's clock standing still); the user whose notification rule asks for the watcher's logs in the app sees
// the alert for 6 s below the navigation bar, in words; and the bell leads to the watchers. With no
// rule at all, whoever sees watchers is still shown a watcher going into alert (SPEC §4).
import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { expectToastFor, installClock, pauseClock, withinPageTime } from './clock.ts';
import { accessTokenOf, apiToken, graphql, login, mosquittoPub, users } from './helpers.ts';

/**
 * A new watcher `name` of the last lamp (one no other test publishes to), over `threshold` on its
 * `key`, whose latest value is set under the threshold first (a retry follows an attempt that left
 * it high). Answers the admin's token and headers, the lamp's device token and the watcher's id.
 */
async function lampWatcher(request: APIRequestContext, name: string, key: string, threshold: number) {
  const token = await apiToken(request, users.cityAdmin);
  const headers = { authorization: `Bearer ${token}` };
  const entities = await (await request.get('/entity-list', { headers })).json() as { id: number; entity_type: { category: string } }[];
  const lamp = entities.filter((entity) => entity.entity_type.category === 'lighting').at(-1)!;
  const lampToken = await accessTokenOf(request, token, lamp.id);
  await mosquittoPub(lampToken, 'v1/devices/me/telemetry', JSON.stringify({ [key]: 0 }));
  const created = await request.post('/create-watcher', {
    headers,
    data: { input: { name, query: { key, aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: threshold }, entity_ids: [lamp.id], interval: 3_600 } },
  });
  expect(created.ok()).toBe(true);
  return { token, headers, lampToken, watcherId: (await created.json()).id as number };
}

test('a value sent with mosquitto_pub puts a watcher in alert: the bell counts it, the in-app rule shows the alert, the bell leads to it', async ({ page, request }) => {
  const name = `Fault level high ${Date.now()}`;
  const { token, headers, lampToken, watcherId } = await lampWatcher(request, name, 'fault_level', 50);
  // the admin's own rule: this watcher's warnings, in the app
  const { create_notification: rule } = await graphql<{ create_notification: { id: number } }>(request, token,
    `mutation { create_notification(channels: ["in_app"], log_filter: {type: ["warning"], sources: [{model_name: "watcher", model_id: ${watcherId}}]}) { id } }`);
  try {
    await installClock(page); // the alert's 6 s on the page's clock
    await login(page, users.cityAdmin);
    const bell = page.getByTestId('watcher-bell');
    await expect(bell).toHaveAttribute('data-alert-count', /^\d+$/);
    await expect(page.getByTestId('ws-status')).toHaveAttribute('data-status', 'connected');
    const before = Number(await bell.getAttribute('data-alert-count'));

    // live, not by the 30 s poll: the page's clock stands still meanwhile (the demo's own watchers
    // may change too: at least one more)
    await pauseClock(page);
    await mosquittoPub(lampToken, 'v1/devices/me/telemetry', JSON.stringify({ fault_level: 82 }));
    await withinPageTime(page, 10_000, async () => {
      expect(Number(await bell.getAttribute('data-alert-count'))).toBeGreaterThan(before);
    });
    await page.clock.resume();
    // the count shown is the count named, nothing else (no rolling digits mid-change); read at one
    // instant, as the demo's own watchers may move the count meanwhile
    await expect.poll(() => bell.evaluate((link) => {
      const count = link.getAttribute('data-alert-count');
      return { shown: link.textContent === count, named: link.getAttribute('aria-label') === `${count} watchers in alert state` };
    })).toEqual({ shown: true, named: true });
    const announcement = page.locator('.ant-notification-notice-error').filter({ hasText: `: fault_level 82 > 50 (${name})` });
    await expect(announcement).toBeVisible();
    const box = await announcement.boundingBox();
    expect(Math.round(box!.y)).toBeGreaterThanOrEqual(84);
    await expectToastFor(page, announcement, 6_000);

    await bell.click();
    await expect(page).toHaveURL(/\/watcher(\?|$)/);
    await expect(page.getByTestId('list-watcher')).toContainText(name);
    await expectNoAxeViolations(page, 'watchers with one in alert');
  } finally {
    await graphql(request, token, `mutation { delete_notification(id: ${rule.id}) { id } }`);
    await request.post('/delete-watcher', { headers, data: { id: watcherId } });
  }
});

test('with no notification rule, a watcher going into alert is shown to whoever sees watchers: its name, an error, 6 s below the navigation bar', async ({ page, request }) => {
  const name = `Fault count high ${Date.now()}`;
  const { headers, lampToken, watcherId } = await lampWatcher(request, name, 'fault_count', 5); // this file's lamp, another key
  try {
    await installClock(page);
    await login(page, users.cityAdmin);
    await expect(page.getByTestId('watcher-bell')).toHaveAttribute('data-alert-count', /^\d+$/);
    await expect(page.getByTestId('ws-status')).toHaveAttribute('data-status', 'connected');
    await mosquittoPub(lampToken, 'v1/devices/me/telemetry', JSON.stringify({ fault_count: 9 }));
    const announcement = page.locator('.ant-notification-notice-error').filter({ hasText: `Watcher ${name} is in alert` });
    await expect(announcement).toBeVisible();
    expect(Math.round((await announcement.boundingBox())!.y)).toBeGreaterThanOrEqual(84);
    await expectToastFor(page, announcement, 6_000);
  } finally {
    await request.post('/delete-watcher', { headers, data: { id: watcherId } });
  }
});
