// The side menu, walked as the administrator and as the operator: every entry opens its page
// (none is a 404 or sends the user away), and a page the menu does not offer the role cannot be
// opened by its address either.
import { expect, test, type Page } from '@playwright/test';
import { login, users } from './helpers.ts';

const ADMIN_MENU = [
  'Dashboard', 'Studio', 'Performance Dashboard', 'Public API dashboard', 'Logs',
  'Regions', 'Zones', 'Devices', 'Scheduler', 'Profiles', 'KPI',
  'Profile', 'Change password', 'Notifications', 'KPI presets', 'Watchers', 'API users', 'Maintenance mode',
];
// every signed-in user changes their own password: the operator too, though Settings is not his
const OPERATOR_MENU = ['Dashboard', 'Performance Dashboard', 'Logs', 'Profile', 'Change password', 'Watchers'];

/** Clicks each entry of the side menu in turn; each must open a page of its own, not the 404 page. */
async function walkMenu(page: Page, expected: string[]) {
  const items = page.getByTestId('sidebar').getByRole('menuitem');
  await expect(items).toHaveText(expected);
  for (const [index, label] of expected.entries()) {
    await items.nth(index).click();
    await expect(page, label).not.toHaveURL(/\/applications$/);
    await expect(page.getByTestId('not-found'), label).toHaveCount(0);
    await expect(page.getByTestId('sidebar').locator('.ant-menu-item-selected'), label).toHaveCount(1); // the page is marked
  }
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('the administrator reaches every page of the menu, the studio\'s zones and devices included', async ({ page }) => {
  test.slow(); // eighteen pages, the map ones among them
  await login(page, users.cityAdmin, '/applications');
  await walkMenu(page, ADMIN_MENU);
  await page.getByTestId('sidebar').getByRole('menuitem', { name: 'Zones' }).click();
  await expect(page.getByTestId('page-studio-zones')).toBeVisible();
  await page.getByTestId('sidebar').getByRole('menuitem', { name: 'Devices' }).click();
  await expect(page.getByTestId('page-studio-devices')).toBeVisible();
});

test('the operator reaches his pages, and no other by its address', async ({ page }) => {
  await login(page, users.cityOperator, '/applications');
  await walkMenu(page, OPERATOR_MENU);
  for (const path of ['/studio/kpi', '/studio/zones', '/profile/notifications', '/profile/kpi-presets', '/studio/kpi/create']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/applications$/);
  }
});
