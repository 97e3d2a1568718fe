// No page blanks the app: every page of the side menu whose code cannot load (the network dropped,
// a deploy removed its file) shows the translated error in its place, with the navbar and the menu
// still there, and passes an axe scan; back online, its 'Try again' shows the page.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { login, users } from './helpers.ts';

/** The lazily loaded code of the pages (their chunks are named after the page's module). */
const PAGE_CHUNKS = /\/assets\/[A-Za-z]+Page-[\w-]+\.js$/;

/** The side menu's entries, as the signed-in user sees them. */
const menuItems = (page: Page) => page.getByTestId('sidebar').getByRole('menuitem');

test('every page of the side menu whose code fails to load shows the error page, not a blank app', async ({ page }) => {
  test.setTimeout(180_000); // a page load per menu entry (the app reloads once for a missing file)
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, users.cityAdmin, '/applications');
  await expect(page.getByTestId('page-applications')).toBeVisible();
  const labels = await menuItems(page).allInnerTexts();
  expect(labels.length).toBeGreaterThan(10);

  await page.route(PAGE_CHUNKS, (route) => route.abort('internetdisconnected'));
  const visited = new Set<string>();
  for (const label of labels) {
    // the error page shown so far is marked: each entry must bring its own
    await page.getByTestId('page-failed').evaluate((node) => node.setAttribute('data-seen', ''), undefined, { timeout: 1 }).catch(() => {});
    await menuItems(page).filter({ hasText: label }).first().click();
    const path = new URL(page.url()).pathname;
    if (visited.has(path)) continue; // a second entry for a page (the studio's, and its first map)
    visited.add(path);
    const failed = page.locator('[data-testid="page-failed"]:not([data-seen])');
    await expect(failed, label).toBeVisible({ timeout: 20_000 });
    await expect(failed).toContainText('This page could not be shown');
    await expect(page.getByTestId('navbar'), label).toBeVisible();
    await expect(page.getByTestId('sidebar'), label).toBeVisible();
    if (visited.size === 1) await expectNoAxeViolations(page, `error page at ${path}`);
  }
  expect(visited.size).toBeGreaterThan(10);

  // back online: "Try again" loads the page's code afresh. The app may still be reloading for the
  // last page's failed file (its error shown before the reload began): that reload then shows the page.
  await page.unroute(PAGE_CHUNKS);
  await expect(async () => {
    const retry = page.getByTestId('page-failed-retry');
    if (await retry.isVisible()) await retry.click();
    await expect(page.getByTestId('page-failed')).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.locator('.app-content h1, .app-content h2, .app-content [data-testid^="list-"]').first()).toBeVisible();
});
