import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test.describe('modules from the token', () => {
  test('an operator without the studio module is sent from the studio to the applications', async ({ page }) => {
    await login(page, users.cityOperator, '/studio/regions');
    await expect(page).toHaveURL(/\/applications$/);
    await expect(page.getByTestId('page-studio-regions')).toHaveCount(0);
  });

  test('the operator sees the dashboard, performance dashboard (boards shared with him) and logs applications but not the studio', async ({ page }) => {
    await login(page, users.cityOperator, '/applications');
    await expect(page.getByTestId('app-tile-factory-dashboard')).toBeVisible();
    await expect(page.getByTestId('app-tile-performance-dashboard')).toBeVisible();
    await expect(page.getByTestId('app-tile-logs')).toBeVisible();
    await expect(page.getByTestId('app-tile-factory-studio')).toHaveCount(0);
    await expect(page.getByTestId('app-tile-public-api-dashboard')).toHaveCount(0);
  });

  test('the administrator sees every application and can open the studio', async ({ page }) => {
    await login(page, users.cityAdmin, '/applications');
    for (const module of ['factory-dashboard', 'factory-studio', 'performance-dashboard', 'public-api-dashboard', 'logs']) {
      await expect(page.getByTestId(`app-tile-${module}`)).toBeVisible();
    }
    await page.goto('/studio/regions');
    await expect(page).toHaveURL(/\/studio\/regions$/);
    await expect(page.getByTestId('page-studio-regions')).toBeVisible();
  });
});
