import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test('switching to Slovak translates the app and survives a reload', async ({ page }) => {
  await login(page, users.cityAdmin, '/applications');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByText('Choose an application')).toBeVisible();

  await page.getByTestId('language-select').click();
  await page.getByTestId('language-option-sk').click();

  await expect(page.locator('html')).toHaveAttribute('lang', 'sk');
  await expect(page.getByText('Vyberte si aplikáciu')).toBeVisible();
  await expect(page.getByText('Choose an application')).toHaveCount(0);

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sk');
  await expect(page.getByText('Vyberte si aplikáciu')).toBeVisible();
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('logout')).toHaveText('Odhlásiť sa');
});
