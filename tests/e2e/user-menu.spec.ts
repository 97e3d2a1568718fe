import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test.describe('user menu', () => {
  test('a user without permissions has no Settings item', async ({ page }) => {
    await login(page, users.cityOperator);
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('logout')).toBeVisible();
    await expect(page.getByTestId('user-menu-settings')).toHaveCount(0);
  });

  test('an administrator has the Settings item', async ({ page }) => {
    await login(page, users.cityAdmin);
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('user-menu-settings')).toBeVisible();
    await expect(page.getByTestId('logout')).toBeVisible();
  });
});
