import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test('an unknown page shows the 404 page with a way back home', async ({ page }) => {
  await login(page, users.cityAdmin, '/no-such-page');

  const notFound = page.getByTestId('not-found');
  await expect(notFound).toBeVisible();
  await expect(notFound).toContainText('OOOPS!');
  await expect(notFound).toContainText('Page not found');
  await expect(page).toHaveTitle(/Page not found/);

  await page.getByTestId('back-home').click();
  await expect(page).toHaveURL(/\/applications$/);
  await expect(page.getByTestId('not-found')).toHaveCount(0);
});
