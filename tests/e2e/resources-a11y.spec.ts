// Every generated page passes an axe scan (WCAG 2.1 AA) and is usable by keyboard.
import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { apiToken, login, users, watcherLogEntries } from './helpers.ts';

const pages: [string, string][] = [
  ['/watcher', 'list-watcher'], ['/watcher/create', 'form-watcher'],
  ['/studio/scheduler', 'list-scheduler'], ['/studio/scheduler/create', 'form-scheduler'],
  ['/studio/profiles', 'list-profile'], ['/studio/profiles/create', 'form-profile'],
  ['/studio/kpi', 'list-kpi'], ['/studio/kpi/create', 'form-kpi'],
  ['/logs', 'list-log'], ['/profile/notifications', 'list-notification'], ['/profile/notifications/create', 'form-notification'],
];

test('the generated lists and forms have no accessibility violation', async ({ page, request }) => {
  test.setTimeout(240_000); // eleven pages, each scanned (twice the time beside a busy CPU)
  await watcherLogEntries(request, await apiToken(request, users.cityAdmin), `Axe door ${Date.now()}`, 3); // log entries to open
  await login(page, users.cityAdmin);
  for (const [path, testId] of pages) {
    await page.goto(path);
    await expect(page.getByTestId(testId)).toBeVisible();
    await expectNoAxeViolations(page);
  }
  await page.goto('/logs');
  await page.getByTestId('row-detail').first().click();
  await expect(page.getByTestId('record-drawer').getByRole('combobox')).toBeInViewport();
  await expectNoAxeViolations(page);
});

test('a watcher can be created with the keyboard alone', async ({ page }) => {
  await login(page, users.cityAdmin, '/watcher/create');
  await expect(page.getByTestId('form-watcher')).toBeVisible();
  await page.getByLabel(/Name$/).focus();
  await page.keyboard.type('Keyboard watcher');
  await page.keyboard.press('Tab'); // attribute key
  await page.keyboard.type('temperature');
  await page.keyboard.press('Tab'); // aggregation
  await page.keyboard.press('Tab'); // operator
  await page.keyboard.press('Tab'); // threshold kind
  await page.keyboard.press('Tab'); // threshold
  await page.keyboard.type('35');
  await page.getByTestId('form-save').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Keyboard watcher was created successfully')).toBeVisible();
});
