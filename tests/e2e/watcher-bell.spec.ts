import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test('the watcher bell shows how many watchers are in alert and leads to the watchers', async ({ page }) => {
  await login(page, users.cityAdmin);
  const bell = page.getByTestId('watcher-bell');
  await expect(bell).toBeVisible();

  // The demo seed has a Demo City watcher in alert state: the badge shows a number ≥ 1.
  await expect(bell).toHaveAttribute('data-alert-count', /^[1-9]\d*$/, { timeout: 15_000 });
  const count = await bell.getAttribute('data-alert-count');
  const badge = bell.locator('.ant-badge-count');
  await expect(badge).toBeVisible();
  await expect(badge).toHaveAttribute('title', count!);
  await expect.poll(async () => (await badge.innerText()).replace(/\s/g, '')).toContain(count!);

  await bell.click();
  await expect(page).toHaveURL(/\/watcher(\?|$)/);
  await expect(page.getByTestId('list-watcher')).toContainText('High temperature');
});
