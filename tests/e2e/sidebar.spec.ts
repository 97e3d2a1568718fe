import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test.describe('sidebar', () => {
  test('is collapsed in a narrow window', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 800 });
    await login(page, users.cityAdmin, '/profile/password');
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
  });

  test('can be toggled in a wide window and keeps its state after a reload', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, users.cityAdmin, '/profile/password');
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toHaveAttribute('data-collapsed', 'false');

    await page.getByTestId('sidebar-toggle').click();
    await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    expect(await page.evaluate(() => localStorage.getItem('sidebar_status'))).not.toBeNull();

    await page.reload();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');

    await page.getByTestId('sidebar-toggle').click();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false');
    await page.reload();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false');
  });
});
