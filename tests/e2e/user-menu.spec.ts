import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test.describe('user menu', () => {
  test('a user without permissions has no Settings item, and changes his password from the user menu', async ({ page }) => {
    await login(page, users.cityOperator);
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('logout')).toBeVisible();
    await expect(page.getByTestId('user-menu-settings')).toHaveCount(0);
    // but every signed-in user changes their own password from the user menu
    await page.getByTestId('user-menu-password').click();
    await expect(page).toHaveURL(/\/profile\/password$/);
    await expect(page.getByLabel(/current password/i)).toBeVisible();
  });

  test('an administrator has the Settings item', async ({ page }) => {
    await login(page, users.cityAdmin);
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('user-menu-settings')).toBeVisible();
    await expect(page.getByTestId('logout')).toBeVisible();
  });
});
