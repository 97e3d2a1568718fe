// Maintenance modes in the browser, against the real server: an administrator (whose token allows
// every mode) starts a window in the generated form; the operator, signed in in a second browser,
// sees its banner within 5 s and loses it when it ends; read-only refuses a save with its
// translated message; device maintenance leaves a lamp out of a KPI and rings it on the map; the
// pages pass axe in English and Slovak.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { apiToken, choose, formField, labelled, login, users } from './helpers.ts';

const BANNER_MS = 5_000;

/** A second signed-in browser (its own storage), as another user of the tenant. */
async function secondBrowser(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await login(page, email);
  return page;
}

/** The form's words in the interface language. */
const WORDS = {
  en: { name: 'Name', mode: 'Mode', repeats: 'Repeats', recurring: 'Recurring (cron)', cron: 'Cron expression', duration: 'Duration (min)' },
  sk: { name: 'Názov', mode: 'Režim', repeats: 'Opakovanie', recurring: 'Opakovane (cron)', cron: 'Výraz cron', duration: 'Trvanie (min)' },
};

/** Starts a window in the generated form: recurring every minute for 10 minutes, so it is in force now. */
async function startInForm(page: Page, name: string, mode: string, words = WORDS.en) {
  await page.goto('/maintenance/create');
  await expect(page.getByTestId('form-maintenance_window')).toBeVisible();
  await formField(page, words.name).fill(name);
  await choose(page, words.mode, mode);
  // the option is clicked as an event: with the banner shown, the date pickers below may lie over
  // the list where the pointer would press
  await page.getByRole('combobox', { name: labelled(words.repeats) }).click({ force: true });
  await page.locator('.ant-select-dropdown:visible').getByTitle(words.recurring, { exact: true }).dispatchEvent('click');
  await expect(page.locator('.ant-select-selection-item', { hasText: words.recurring })).toBeVisible();
  await formField(page, words.cron).fill('* * * * *');
  await formField(page, words.duration).fill('10');
  await page.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/maintenance(\?|$)/); // the list, with or without its table's state in the address yet
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
}

// whatever a test leaves in force (a failure half-way) must not reach the next spec's devices
test.afterEach(async ({ request }) => {
  const token = await apiToken(request, users.cityAdmin);
  const headers = { authorization: `Bearer ${token}` };
  const windows = await (await request.get('/maintenance-window-list', { headers })).json() as { id: number }[];
  for (const { id } of windows) await request.post('/delete-maintenance-window', { headers, data: { id } });
});

/** Ends the window by deleting it from the list. */
async function endInList(page: Page, name: string) {
  await page.goto('/maintenance');
  const row = page.getByRole('row', { name: new RegExp(name) });
  await row.getByTestId('row-delete').click();
  await page.getByRole('button', { name: 'Delete', exact: true }).last().press('Enter');
  await expect(row).toHaveCount(0);
}

test('read-only: started in the form, its banner on a second browser within 5 s, a save refused with its message, gone when it ends', async ({ page, browser }) => {
  test.slow();
  const operator = await secondBrowser(browser, users.cityOperator);
  await operator.goto('/logs');
  await expect(operator.getByTestId('list-log')).toBeVisible();
  await expect(operator.getByTestId('maintenance-banner')).toHaveCount(0);

  await login(page, users.cityAdmin, '/maintenance');
  await expect(page.getByTestId('list-maintenance_window')).toBeVisible();
  await expectNoAxeViolations(page, 'maintenance list');
  const name = `Database upgrade ${Date.now().toString(36)}`;
  await startInForm(page, name, 'Read-only');

  const banner = operator.getByTestId('maintenance-banner');
  await expect(banner).toContainText(`Read-only: ${name}`, { timeout: BANNER_MS });
  await expect(banner).toContainText('Changes cannot be saved.');
  // the operator may not start one: no way to the maintenance page
  await expect(banner.getByRole('link')).toHaveCount(0);
  await expectNoAxeViolations(operator, 'banner');

  // the administrator's own menu lists it, and a save is refused with the translated message
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('user-menu-maintenance')).toContainText(`Read-only: ${name}`);
  await page.keyboard.press('Escape');
  await page.goto('/watcher/create');
  await formField(page, 'Name').fill('Saved during maintenance');
  await formField(page, 'Attribute key').fill('humidity');
  await formField(page, 'Threshold').fill('40');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('The platform is read-only for maintenance: changes cannot be saved until the maintenance window ends.')).toBeVisible();

  await endInList(page, name);
  await expect(banner).toHaveCount(0, { timeout: BANNER_MS });
  await operator.context().close();
});

test('device maintenance leaves a lamp out of a KPI and rings it on the map; notify-off, started in Slovak, shows its banner', async ({ page, browser, request }) => {
  test.slow();
  const token = await apiToken(request, users.cityAdmin);
  const headers = { authorization: `Bearer ${token}` };
  const entities = await (await request.get('/entity-list', { headers })).json() as { id: number; tree_path: string; entity_type: { category: string } }[];
  const lamp = entities.filter((entity) => entity.entity_type.category === 'lighting').at(-4)!;
  const region = Number(lamp.tree_path.split('.')[0]);
  const kpi = { query: [{ key: 'power', aggregation: 'sum', entity_ids: [lamp.id] }], definition: { chart: 'bar', time_range: '30d', series: 'per_entity' } };
  const lampInKpi = async () => JSON.stringify(await (await request.post('/kpi-preview', { headers, data: kpi })).json()).includes(`"entity_id":${lamp.id}`);
  expect(await lampInKpi()).toBe(true);

  const repair = `Lamp repair ${Date.now().toString(36)}`;
  const created = await request.post('/create-maintenance-window', {
    headers, data: { input: { name: repair, mode: 'device-maintenance', scope: 'region', region_id: region, schedule: { kind: 'recurring', expression: '* * * * *', duration_minutes: 10 } } },
  });
  expect(created.ok()).toBe(true);
  expect(await lampInKpi()).toBe(false);

  const operator = await secondBrowser(browser, users.cityOperator);
  await operator.goto('/dashboard');
  await expect(operator.getByTestId('maintenance-banner')).toContainText(`Device maintenance: ${repair}`, { timeout: BANNER_MS });
  await expect(operator.getByTestId('map-legend')).toContainText('Under maintenance');

  // notify-off, started by the administrator in the form, in Slovak
  await login(page, users.cityAdmin);
  await page.getByTestId('language-select').click();
  await page.getByTestId('language-option-sk').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sk');
  await expect(page.getByTestId('maintenance-banner')).toContainText(`Údržba zariadení: ${repair}`);
  await page.goto('/maintenance/create');
  await expect(page.getByTestId('form-maintenance_window')).toBeVisible();
  await expectNoAxeViolations(page, 'maintenance form, Slovak');
  const quiet = `Quiet night ${Date.now().toString(36)}`;
  await startInForm(page, quiet, 'Notifikácie vypnuté', WORDS.sk);
  await expectNoAxeViolations(page, 'maintenance list, Slovak');
  await expect(operator.getByTestId('maintenance-banner')).toContainText(`Notifications off: ${quiet}`, { timeout: BANNER_MS });

  const windows = await (await request.get('/maintenance-window-list', { headers })).json() as { id: number; name: string }[];
  for (const id of [(await created.json()).id, windows.find((window) => window.name === quiet)!.id]) {
    expect((await request.post('/delete-maintenance-window', { headers, data: { id } })).ok()).toBe(true);
  }
  await expect(operator.getByTestId('maintenance-banner')).toHaveCount(0, { timeout: BANNER_MS });
  expect(await lampInKpi()).toBe(true);
  await operator.context().close();
});
