// The generated pages of the resource engine, driven like a tenant admin: create, edit and delete
// through the forms, against the real server.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { installClock, pauseClock, withinPageTime } from './clock.ts';
import { apiToken, choose, formField, labelled, login, users, watcherLogEntries } from './helpers.ts';


const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

/** Opens the row's editor, applies `change`, saves (expecting `updated`), then deletes the changed row after confirming. */
async function editThenDelete(page: Page, model: string, row: RegExp, change: () => Promise<void>, updated: string, changedRow: RegExp) {
  await page.getByRole('row', { name: row }).getByTestId('row-edit').click();
  await expect(page.getByTestId(`form-${model}`)).toBeVisible();
  await change();
  await page.getByTestId('form-save').click();
  await expect(page.getByText(updated)).toBeVisible();
  const edited = page.getByRole('row', { name: changedRow });
  await expect(edited).toBeVisible();
  await edited.getByTestId('row-delete').click();
  // by keyboard: a notification sliding in over the small confirm button cannot take the press
  await page.getByRole('button', { name: 'Delete', exact: true }).last().press('Enter');
  await expect(edited).toHaveCount(0);
}

const escaped = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

test("a scheduler's complex query is tested in its form: passed with the answer, failed with the reason, N/A once edited", async ({ page }) => {
  await login(page, users.cityAdmin, '/studio/scheduler/create');
  await expect(page.getByTestId('form-scheduler')).toBeVisible();
  await choose(page, 'Aggregation', 'Complex query');
  const query = page.getByRole('textbox', { name: labelled('Complex query') });
  await query.fill('{"query":{"bool":{"filter":[{"term":{"key":"power"}}]}},"aggs":{"readings":{"value_count":{"field":"value"}}}}');
  const status = page.getByTestId('complex-query-status');
  await expect(status).toHaveText('N/A');
  await page.getByRole('button', { name: 'Test query' }).click();
  await expect(status).toHaveText('Passed');
  await expect(page.getByTestId('complex-query-result')).toContainText(/[1-9]/); // last week's power readings, counted
  await query.fill('{"query":{"script":{"source":"1"}}}');
  await expect(status).toHaveText('N/A');
  await page.getByRole('button', { name: 'Test query' }).click();
  await expect(status).toHaveText('Test of query ended with error = query.script is not supported');
  await expectNoAxeViolations(page, 'scheduler form with a tested complex query');
});

test('an admin creates, edits and deletes a watcher; what they type is kept through a change of it told live meanwhile', async ({ page, request }) => {
  test.slow(); // a whole create-edit-delete flow: 25–28 s on a 2-core machine, near the 30 s default
  await login(page, users.cityAdmin, '/watcher');
  await expect(page.getByTestId('list-watcher')).toContainText('High temperature');
  await page.getByTestId('list-create').click();
  await expect(page).toHaveURL(/\/watcher\/create$/);
  await expect(page.getByTestId('form-watcher')).toBeVisible();

  const name = uniqueName('Humidity watch');
  await formField(page, 'Name').fill(name);
  await formField(page, 'Attribute key').fill('humidity');
  await choose(page, 'Operator', 'between');
  await formField(page, 'Threshold').fill('40');
  await page.getByTestId('form-save').click();
  // between takes two values: the upper one is required
  await expect(page.getByText('Upper threshold is required')).toBeVisible();
  await formField(page, 'Upper threshold').fill('70');
  await formField(page, 'Interval (s)').fill('100000');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('The Interval (s) field must be 86400 or less')).toBeVisible();
  await formField(page, 'Interval (s)').fill('120');
  await page.getByTestId('form-save').click();
  await expect(page.getByText(`${name} was created successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/watcher(\?|$)/);

  const token = await apiToken(request, users.cityAdmin);
  await editThenDelete(page, 'watcher', escaped(name), async () => {
    await formField(page, 'Name').fill(`${name} (edited)`);
    // someone else (or the engine) changes the same watcher: the live change reaches this page (the
    // bell reads the watchers again); the form keeps what was typed
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const relisted = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/watcher-list');
    const changed = await request.post('/update-watcher', { headers: { authorization: `Bearer ${token}` }, data: { input: { id, interval: 300 } } });
    expect(changed.status(), await changed.text()).toBe(200);
    await relisted;
    await expect(formField(page, 'Name')).toHaveValue(`${name} (edited)`);
  }, `${name} (edited) was updated successfully`, escaped(`${name} (edited)`));
});

test('a form holding an entity type shows its name, and no error', async ({ page }) => {
  await login(page, users.cityAdmin, '/watcher');
  await page.getByRole('row', { name: /High temperature/ }).getByTestId('row-edit').click();
  await expect(page.getByTestId('form-watcher')).toBeVisible();
  const types = page.getByTestId('form-watcher').locator('.ant-form-item').filter({ hasText: 'Entity types' });
  await expect(types.locator('.ant-select-selection-item')).toHaveCount(1);
  await expect(types.locator('.ant-select-selection-item')).not.toHaveText(/^#\d+$/);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
});

test("an editor opened with another tenant's id, or an unknown one, says 'Entity not found' and offers no form", async ({ page, request }) => {
  const token = await apiToken(request, users.facilityAdmin);
  const [foreign] = await (await request.get('/watcher-list', { headers: { authorization: `Bearer ${token}` } })).json();
  await login(page, users.cityAdmin);
  for (const id of [foreign.id, 2_000_000_000]) {
    await page.goto(`/watcher/edit/${id}`);
    await expect(page.getByText('Entity not found')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('form-save')).toHaveCount(0);
  }
  await page.getByRole('link', { name: 'Back to the list' }).click();
  await expect(page.getByTestId('list-watcher')).toBeVisible();
});

test('an admin creates, edits and deletes a scheduler, with the cron explained before saving', async ({ page }) => {
  test.slow(); // a whole create-edit-delete flow: 25–28 s on a 2-core machine, near the 30 s default
  await login(page, users.cityAdmin, '/studio/scheduler/create');
  await expect(page.getByTestId('form-scheduler')).toBeVisible();
  const name = uniqueName('Nightly energy');
  await formField(page, 'Name').fill(name);
  const cron = page.getByTestId('cron-input');
  await cron.fill('61 * * * *');
  await expect(page.getByTestId('cron-preview')).toHaveCount(0);
  // in range field by field (SPEC §5: day of month 0-31), but never a day: said under the field, the page stays
  await cron.fill('0 6 0 * *');
  await expect(page.getByTestId('cron-never-runs')).toHaveText('This schedule never runs');
  await expect(page.getByTestId('navbar')).toBeVisible();
  await cron.fill('30 2 * * 1-5');
  const preview = page.getByTestId('cron-preview');
  await expect(preview).toContainText('02:30');
  await expect(preview.locator('li')).toHaveCount(5);
  await formField(page, 'Attribute key').fill('energy');
  await formField(page, 'Target attribute').fill('energy_night');
  await page.getByTestId('form-save').click();
  await expect(page.getByText(`${name} was created successfully`)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('tag-result')).toHaveText('N/A');
  await editThenDelete(page, 'scheduler', escaped(name), async () => {
    await expect(page.getByTestId('cron-input')).toHaveValue('30 2 * * 1-5');
    await page.getByTestId('cron-input').fill('0 4 * * *');
    await expect(page.getByTestId('cron-preview')).toContainText('04:00');
  }, `${name} was updated successfully`, escaped(name));
});

test('a profile takes at most 16 intervals; it is edited and deleted', async ({ page }) => {
  test.slow(); // a whole create-edit-delete flow: 25–28 s on a 2-core machine, near the 30 s default
  await login(page, users.cityAdmin, '/studio/profiles/create');
  await expect(page.getByTestId('form-profile')).toBeVisible();
  const name = uniqueName('Street dimming');
  await formField(page, 'Name').fill(name);
  const add = page.getByTestId('add-definition.intervals');
  for (let i = 0; i < 16; i += 1) await add.click();
  await expect(page.getByTestId('definition.intervals-item')).toHaveCount(16);
  await add.click();
  await expect(page.getByText('It is not possible to create more than 16 intervals.')).toBeVisible();
  await expect(page.getByTestId('definition.intervals-item')).toHaveCount(16);
  // keep one interval and fill it in
  for (let i = 0; i < 15; i += 1) await page.getByTestId('definition.intervals-item').last().getByRole('button', { name: 'Remove' }).click();
  const item = page.getByTestId('definition.intervals-item');
  await item.getByLabel(labelled('From')).fill('22:00');
  await item.getByLabel(labelled('From')).press('Enter');
  await item.getByLabel(labelled('To')).fill('05:00');
  await item.getByLabel(labelled('To')).press('Enter');
  await item.getByLabel(labelled('Level (%)')).fill('40');
  await page.getByTestId('form-save').click();
  await expect(page.getByText(`${name} was created successfully`)).toBeVisible();
  await editThenDelete(page, 'profile', escaped(name), async () => {
    await expect(page.getByTestId('definition.intervals-item')).toHaveCount(1);
    await formField(page, 'Name').fill(`${name} 2`);
  }, `${name} 2 was updated successfully`, escaped(`${name} 2`));
});

test('an admin creates, edits and deletes a KPI definition and a notification rule', async ({ page }) => {
  test.slow(); // a whole create-edit-delete flow: 25–28 s on a 2-core machine, near the 30 s default
  await login(page, users.cityAdmin, '/studio/kpi/create');
  await expect(page.getByTestId('form-kpi')).toBeVisible();
  const name = uniqueName('Peak power');
  await page.getByLabel('Name (English)').fill(name);
  await page.getByLabel('Name (Slovenčina)').fill(`${name} sk`);
  // a KPI starts with one query item
  await page.getByRole('combobox', { name: labelled('Attribute key') }).fill('power');
  await page.keyboard.press('Tab');
  await choose(page, 'Chart type', 'Gauge');
  // The gauge's Maximum appears once the form has taken the chart type: type into it then, and see
  // the form keep it (leaving the field commits the number) before saving.
  const maximum = formField(page, 'Maximum');
  await expect(maximum).toBeEditable();
  await maximum.fill('500');
  await maximum.press('Tab');
  await expect(maximum).toHaveValue('500');
  await page.getByTestId('form-save').click();
  await expect(page.getByText(`${name} was created successfully`)).toBeVisible();
  await editThenDelete(page, 'kpi', escaped(name), () => page.getByLabel('Name (English)').fill(`${name} v2`),
    `${name} v2 was updated successfully`, escaped(`${name} v2`));

  await page.goto('/profile/notifications');
  await page.getByTestId('list-create').click();
  await expect(page.getByTestId('form-notification')).toBeVisible();
  await choose(page, 'Channels', 'In the app');
  await page.keyboard.press('Escape');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('Notification rule was created successfully')).toBeVisible();
  await expect(page.getByTestId('list-notification').getByRole('row')).toHaveCount(3); // header + seeded + new
  await editThenDelete(page, 'notification', /In the app/, async () => {
    await expect(page.getByTestId('form-notification')).toContainText('In the app'); // the rule has loaded
    await page.getByRole('switch').click();
  },
    'Notification rule was updated successfully', /Inactive.*In the app/);
  await expect(page.getByTestId('list-notification').getByRole('row')).toHaveCount(2);
});

test('the operator sees watchers without a create button and cannot open the editor', async ({ page }) => {
  await login(page, users.cityOperator, '/watcher');
  await expect(page.getByTestId('list-watcher')).toContainText('High temperature');
  await expect(page.getByTestId('list-create')).toHaveCount(0);
  await expect(page.getByTestId('row-edit')).toHaveCount(0);
  await page.goto('/watcher/create');
  await expect(page).toHaveURL(/\/applications$/);
  const token = await page.evaluate(() => localStorage.getItem('terrasight.access_token'));
  const refused = await page.request.post('/create-watcher', { headers: { authorization: `Bearer ${token}` }, data: { input: { name: 'x', query: { key: 'a' }, condition: { operator: '>', kind: 'number', value: 1 } } } });
  expect(refused.status()).toBe(403);
});

test('a record created in one browser appears in another\'s open list', async ({ browser }) => {
  const viewer = await browser.newPage();
  const editor = await browser.newPage();
  await installClock(viewer);
  await login(viewer, users.cityAdmin, '/watcher');
  await expect(viewer.getByTestId('list-watcher')).toContainText('High temperature');
  await login(editor, users.cityAdmin);
  const token = await editor.evaluate(() => localStorage.getItem('terrasight.access_token'));
  const name = uniqueName('Live watcher');
  await pauseClock(viewer); // no poll meanwhile: the list hears of it live
  const created = await editor.request.post('/create-watcher', { headers: { authorization: `Bearer ${token}` }, data: { input: { name, query: { key: 'temperature' }, condition: { operator: '>', kind: 'number', value: 40 } } } });
  expect(created.status()).toBe(200);
  await withinPageTime(viewer, 10_000, () => expect(viewer.getByRole('row', { name: new RegExp(name) })).toBeVisible({ timeout: 200 }));
  await viewer.close();
  await editor.close();
});

test('in Slovak, a scheduler is created through the same form with Slovak texts', async ({ page }) => {
  await login(page, users.cityAdmin);
  await page.getByTestId('language-select').click();
  await page.getByTestId('language-option-sk').click();
  await page.goto('/studio/scheduler/create');
  await expect(page.getByTestId('form-scheduler')).toContainText('Vytvoriť: Plánovač');
  const name = uniqueName('Nočná energia');
  await formField(page, 'Názov').fill(name);
  await page.getByTestId('cron-input').fill('0 3 * * *');
  await expect(page.getByTestId('cron-preview')).toContainText('Nasledujúcich päť spustení:');
  await formField(page, 'Cieľový atribút').fill('energia_noc');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('Pole Kľúč atribútu je povinné')).toBeVisible(); // avg needs its attribute key
  await formField(page, 'Kľúč atribútu').fill('energy');
  await page.getByTestId('form-save').click();
  await expect(page.getByText(`Záznam ${name} bol úspešne vytvorený`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
});

test('logs: filters kept in the address, a detail drawer with the entity, status changes with who and when, one by one and in bulk', async ({ page, request }) => {
  // two entries written by the watcher engine: an alert and a recovery of a new watcher
  const token = await apiToken(request, users.cityAdmin);
  const name = `Cabinet door ${Date.now()}`;
  const { lampId, watcherId } = await watcherLogEntries(request, token, name, 2); // a lamp no other test publishes to

  await login(page, users.cityOperator, '/logs');
  const list = page.getByTestId('list-log');
  await expect(list.getByRole('row').nth(1)).toBeVisible();
  await page.getByTestId('list-search').fill(name);
  await page.getByTestId('list-search').press('Enter');
  await expect(page).toHaveURL(/search/);
  await expect(list.getByRole('row')).toHaveCount(3); // header + the alert and the recovery
  await page.reload();
  await expect(list.getByRole('row')).toHaveCount(3); // the view comes back from the address
  // told in words; the entity column names the device and opens it on the map
  const alert = list.getByRole('row', { name: new RegExp(`: door 1 > 0 \\(${name}\\)`) });
  await expect(alert.getByRole('link')).toHaveAttribute('href', `/dashboard/entity/${lampId}`);
  await alert.getByTestId('row-detail').click();
  const drawer = page.getByTestId('record-drawer');
  await expect(drawer).toContainText(`door 1 > 0 (${name})`);
  await expect(drawer.getByRole('combobox')).toBeInViewport(); // the drawer has slid in
  await drawer.getByRole('combobox').click({ force: true });
  await page.locator('.ant-select-dropdown:visible').getByTitle('Done', { exact: true }).click();
  await expect(alert.getByTestId('tag-status')).toHaveText('Done');
  await expect(page.getByText('Log was updated successfully')).toBeVisible();
  // resolved by whom: the operator, now
  await expect(drawer.getByRole('row', { name: /Resolved by/ })).toContainText('operator@demo.city');
  await expect(drawer.getByRole('row', { name: /^Resolved\b(?! by)/ }).locator('time')).toHaveCount(1);
  await page.keyboard.press('Escape');

  // in bulk: both entries of the watcher
  await list.getByRole('checkbox').first().check(); // select all on the page
  await page.getByTestId('bulk-status').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('Done', { exact: true }).click();
  await expect(list.getByTestId('tag-status').filter({ hasText: 'Done' })).toHaveCount(2);
  await expect(page.getByText('Records updated: 2')).toBeVisible();
  await expect(page.getByText(/notifications\./)).toHaveCount(0);
  await request.post('/delete-watcher', { headers: { authorization: `Bearer ${token}` }, data: { id: watcherId } });
});

test('the list exports its current view as CSV, formulas neutralised', async ({ page }) => {
  await login(page, users.cityAdmin);
  const token = await page.evaluate(() => localStorage.getItem('terrasight.access_token'));
  const name = `=HYPERLINK("http://evil.example","${Date.now()}")`;
  const created = await page.request.post('/create-watcher', { headers: { authorization: `Bearer ${token}` }, data: { input: { name, query: { key: 'a' }, condition: { operator: '>', kind: 'number', value: 1 } } } });
  expect(created.status()).toBe(200);
  await page.goto('/watcher?filters[0][field]=search&filters[0][operator]=contains&filters[0][value]=HYPERLINK');
  await expect(page.getByTestId('list-watcher').getByRole('row')).toHaveCount(2);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-export').click()]);
  const csv = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  expect(csv).toContain(`'=HYPERLINK`);
  expect(csv).not.toMatch(/(^|,)"?=HYPERLINK/m);
  expect(csv.split(/\r?\n/).filter(Boolean)).toHaveLength(2); // header + the one watcher of the view
});

test('leaving a changed form asks first', async ({ page }) => {
  await login(page, users.cityAdmin, '/watcher/create');
  await expect(page.getByTestId('form-watcher')).toBeVisible();
  await formField(page, 'Name').fill('Unsaved');
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await page.getByRole('menuitem', { name: /Profile/ }).first().click();
  await expect.poll(() => asked).toContain('unsaved changes');
  await expect(page).toHaveURL(/\/watcher\/create$/);
  await expect(formField(page, 'Name')).toHaveValue('Unsaved');
});
