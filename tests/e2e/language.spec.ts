import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test('switching to Slovak translates the app and survives a reload', async ({ page }) => {
  await login(page, users.cityAdmin);
  await page.goto('/applications');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const tile = page.getByTestId('app-tile-factory-studio');
  await expect(tile).toContainText('Studio');
  const englishNavbar = await page.getByTestId('navbar').innerText();

  await page.getByTestId('language-select').click();
  await page.getByTestId('language-option-sk').click();

  await expect(page.locator('html')).toHaveAttribute('lang', 'sk');
  // Texts change to Slovak: the navbar differs and the page shows Slovak letters.
  await expect(page.getByTestId('navbar')).not.toHaveText(englishNavbar);
  await expect(page.locator('body')).toContainText(/[áäčďéíĺľňóôŕšťúýž]/i);

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sk');
  await expect(page.locator('body')).toContainText(/[áäčďéíĺľňóôŕšťúýž]/i);
});
