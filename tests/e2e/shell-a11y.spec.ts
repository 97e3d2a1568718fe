// The shell's pages pass an axe scan (WCAG 2.1 AA): sign-in (English and Slovak), applications,
// profile, password change, the 404 page, with the user menu open; sign-in works by keyboard.
import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe.ts';
import { DEMO_PASSWORD, login, users } from './helpers.ts';

test('the sign-in page, in English and Slovak, and by keyboard', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-email')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('language-select').click();
  await page.getByTestId('language-option-sk').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sk');
  await expect(page.locator('.ant-dropdown:visible')).toHaveCount(0); // scanned once the menu has closed
  await expectAccessible(page);

  await page.getByTestId('login-email').focus();
  await page.keyboard.type(users.cityAdmin);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('login-password')).toBeFocused();
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/login/);
});

test('the shell pages', async ({ page }) => {
  await login(page, users.cityAdmin);
  for (const path of ['/applications', '/profile', '/profile/password', '/no-such-page']) {
    await page.goto(path);
    await expect(page.getByTestId('navbar')).toBeVisible();
    await expectAccessible(page);
  }
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('logout')).toBeVisible();
  await expectAccessible(page);
});
