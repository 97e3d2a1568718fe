import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test('the watcher bell shows how many watchers are in alert and leads to the watchers', async ({ page }) => {
  await login(page, users.cityAdmin);
  const bell = page.getByTestId('watcher-bell');
  await expect(bell).toBeVisible();
  // The demo seed has a Demo City watcher in alert state.
  await expect.poll(async () => Number((await bell.innerText()).match(/\d+/)?.[0] ?? 0), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

  await bell.click();
  await expect(page).toHaveURL(/\/watcher$/);
});
