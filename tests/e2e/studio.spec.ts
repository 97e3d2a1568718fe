// The studio on the map: a zone needs its polygon ('Zone is missing coordinates…'), and is saved
// once drawn; a device is created as a point, a polygon and a circle, with its area; the
// operator (no factory-studio) is sent to /; the pages pass an axe scan.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { apiToken, login, users, watchViolations } from './helpers.ts';

async function mapBox(page: Page) {
  const canvas = page.getByTestId('facility-map').locator('canvas.maplibregl-canvas');
  await expect(canvas).toBeVisible();
  // the drawing tool starts once the style has loaded
  await expect(page.getByTestId('facility-map').locator('.maplibregl-map')).toHaveAttribute('data-drawing', 'ready');
  return (await canvas.boundingBox())!;
}

async function clickAt(page: Page, x: number, y: number) {
  await page.mouse.move(x, y, { steps: 2 });
  await page.mouse.click(x, y);
  await page.waitForTimeout(150);
}

/** Picks the shape to draw (antd's button-styled radio). */
async function shape(page: Page, name: string) {
  await page.locator('.ant-radio-button-wrapper', { hasText: name }).click();
}

async function fillName(page: Page, name: string) {
  await page.getByTestId('studio-editor').getByRole('textbox').first().fill(name);
}

test('a zone needs its polygon, and is saved once drawn', async ({ page }) => {
  test.slow(); // a drawing, two saves, a reload and an axe scan of the map page
  await login(page, users.cityAdmin, '/studio/zones');
  await expect(page.getByTestId('page-studio-zones')).toBeVisible();
  await page.getByTestId('studio-create').click();
  // an empty form says what is missing, and throws nothing
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.getByTestId('studio-save').click();
  await expect(page.getByTestId('studio-editor').locator('.ant-form-item-explain-error').first()).toBeVisible();
  expect(pageErrors).toEqual([]);
  // a zone lies in a region: its parent picker offers regions, no device
  await page.getByTestId('studio-editor').locator('.ant-form-item').filter({ hasText: 'Parent' }).locator('.ant-select').click();
  const parents = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(parents.first()).toBeVisible();
  expect((await parents.allTextContents()).filter((name) => /lamp|sensor|gateway/i.test(name))).toEqual([]);
  await page.keyboard.press('Escape');
  await fillName(page, 'Drawn zone');
  await page.getByTestId('studio-save').click();
  await expect(page.getByText('Zone is missing coordinates. Please draw a polygon.')).toBeVisible();

  const box = await mapBox(page);
  await shape(page, 'Polygon');
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  for (const [dx, dy] of [[-80, -60], [80, -60], [80, 60], [-80, 60]]) await clickAt(page, cx + dx, cy + dy);
  await clickAt(page, cx - 80, cy - 60); // the first corner again closes it
  await expect(page.getByRole('radio', { name: 'Polygon' })).toBeChecked();
  await page.getByTestId('studio-save').click();
  await expect(page.getByText('was created successfully')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Drawn zone' })).toBeVisible();
  await expectNoAxeViolations(page, 'studio zones');
});

test('a device is created as a point, a polygon and a circle, each with its area', async ({ page, request }) => {
  test.slow(); // three drawings, a save and an axe scan of the map page: 20-30 s on two busy cores
  await login(page, users.cityAdmin, '/studio/devices');
  await page.getByTestId('studio-create').click();
  await fillName(page, 'Drawn device');
  const box = await mapBox(page);
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];

  await shape(page, 'Point');
  await clickAt(page, cx, cy);
  await expect(page.getByTestId('studio-area')).toContainText('0');

  await shape(page, 'Polygon');
  for (const [dx, dy] of [[-50, -50], [50, -50], [50, 50], [-50, 50]]) await clickAt(page, cx + dx, cy + dy);
  await clickAt(page, cx - 50, cy - 50);
  const polygonArea = Number((await page.getByTestId('studio-area').locator('.ant-statistic-content-value').textContent())!.replace(/\D/g, ''));
  expect(polygonArea).toBeGreaterThan(1000);

  await shape(page, 'Circle');
  await clickAt(page, cx, cy);
  await clickAt(page, cx + 60, cy);
  const circleArea = Number((await page.getByTestId('studio-area').locator('.ant-statistic-content-value').textContent())!.replace(/\D/g, ''));
  expect(circleArea).toBeGreaterThan(1000);
  await page.getByRole('button', { name: 'Recalculate' }).click();

  // a device needs its type: a device's, never a region's or a zone's
  await page.getByTestId('studio-editor').locator('.ant-form-item').filter({ hasText: 'Entity type' }).locator('.ant-select').click();
  const typeOptions = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(typeOptions.filter({ hasText: 'Street lamp' })).toHaveCount(1);
  for (const kind of ['Region', 'Zone']) {
    await page.keyboard.type(kind);
    await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-empty'), kind).toBeVisible();
    for (let typed = 0; typed < kind.length; typed++) await page.keyboard.press('Backspace');
  }
  await typeOptions.filter({ hasText: 'Street lamp' }).click();
  // the gateway switch and the gateway picker are told apart
  await expect(page.getByTestId('studio-editor').getByText('Acts as a gateway', { exact: true })).toHaveCount(1);
  await expect(page.getByTestId('studio-editor').getByText('Gateway', { exact: true })).toHaveCount(1);
  await page.getByTestId('studio-save').click();
  await expect(page.getByText('was created successfully')).toBeVisible();
  await expect(page.getByLabel('Access token', { exact: true })).toHaveValue(/^[0-9a-f]{32}$/);
  // stored as a circle: its centre and radius, and the area shown is π·r²
  const token = await apiToken(request, users.cityAdmin);
  const [device] = await (await request.get('/entity-list?search=Drawn%20device', { headers: { authorization: `Bearer ${token}` } })).json();
  expect(device.geom).toMatchObject({ type: 'Point', coordinates: [expect.any(Number), expect.any(Number)], radius: expect.any(Number) });
  expect(circleArea).toBe(Math.round(Math.PI * device.geom.radius ** 2));
  expect(device.attributes.area).toBe(circleArea);
  await expectNoAxeViolations(page, 'studio devices');
});

test('the operator, without factory-studio, is sent to /', async ({ page }) => {
  await login(page, users.cityOperator, '/studio/devices');
  await expect(page).toHaveURL(/\/applications$/);
});

test('telemetry from a CSV file in 4 steps: file, columns, a check with the share of valid rows, the upload', async ({ page }) => {
  await login(page, users.cityAdmin, '/studio/devices');
  await page.getByRole('button', { name: /Environment sensor|Sensor/ }).first().click();
  await page.getByRole('button', { name: 'Upload telemetry (CSV)' }).click();
  const dialog = page.getByRole('dialog');
  const input = dialog.locator('input[type=file]');

  await input.setInputFiles({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(2 * 1024 * 1024 + 1, 'a') });
  await expect(dialog).toContainText('The file must be under 2 MB.');

  const csv = 'ts,Temperature,humidity,note\n2025-03-01T10:00:00Z,21.5,40,a\n2025-03-01T11:00:00Z,=1+2,41,b\n2025-03-01T12:00:00Z,22,42,c\n1740830400000,23,43,d\n';
  await input.setInputFiles({ name: 'sensor.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(dialog).toContainText('4 rows.');
  // ts, temperature and humidity are matched by name; "note" is not the device's and is ignored
  await expect(dialog.getByRole('combobox', { name: 'Device column: note' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Check the rows' }).click();
  await expect(dialog.getByTestId('upload-summary')).toHaveText('3 of 4 rows are valid (75 %).');
  await expect(dialog).toContainText('temperature must be a number');
  await dialog.getByRole('button', { name: 'Upload 3 valid rows' }).click();
  await expect(dialog).toContainText('3 of 4 rows stored');
  await expectNoAxeViolations(page, 'telemetry upload');
});

test('a large telemetry file (≈1.5 MB) is read in the CSV worker under the CSP and reaches the check step', async ({ page }) => {
  const violations = await watchViolations(page);
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await login(page, users.cityAdmin);
  const document = await page.goto('/studio/devices');
  expect(document?.headers()['content-security-policy']).toMatch(/worker-src 'self'/);
  await page.getByRole('button', { name: /Environment sensor|Sensor/ }).first().click();
  await page.getByRole('button', { name: 'Upload telemetry (CSV)' }).click();
  const dialog = page.getByRole('dialog');

  // long quoted notes (separators, quotes and a line break inside) keep the row count, and the check, short
  const note = `"${'a note, with ""quotes"" and a comma; '.repeat(5)}\r\nsecond line"`;
  let csv = '\uFEFFts,Temperature,humidity,note\r\n';
  let rows = 0;
  for (; csv.length < 1.5 * 1024 * 1024; rows++) csv += `${Date.UTC(2025, 2, 1) + rows * 60_000},${20 + (rows % 10)},${40 + (rows % 7)},${note}\r\n`;
  await dialog.locator('input[type=file]').setInputFiles({ name: 'large.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(dialog).toContainText(`${rows} rows.`, { timeout: 20_000 });
  expect(workers.filter((url) => /\/assets\/csvWorker-[\w-]+\.js$/.test(url))).toHaveLength(1);
  await expect(dialog.getByRole('combobox', { name: 'Device column: note' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Check the rows' }).click();
  await expect(dialog.getByTestId('upload-summary')).toHaveText(`${rows} of ${rows} rows are valid (100 %).`, { timeout: 20_000 });
  expect(violations).toEqual([]);
});

test('the device import refuses each bad file with its message, then creates the devices of a good one', async ({ page }) => {
  await login(page, users.cityAdmin, '/studio/devices');
  await page.getByRole('button', { name: 'CSV import' }).click();
  const dialog = page.getByRole('dialog');
  const input = dialog.locator('input[type=file]');
  const choose = (name: string, text: string) => input.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  const header = 'name,entity_type,latitude,longitude,level,gateway';

  await choose('empty.csv', '');
  await expect(dialog.getByTestId('device-import-problems')).toContainText('The file is empty.');
  await choose('missing.csv', 'name,entity_type,latitude,longitude,level\nA,Street lamp,48.1,17.1,0\n');
  await expect(dialog.getByTestId('device-import-problems')).toContainText('The column gateway is missing.');
  await choose('extra.csv', `${header},colour\nA,Street lamp,48.1,17.1,0,no,red\n`);
  await expect(dialog.getByTestId('device-import-problems')).toContainText('The column colour is not expected.');
  await choose('wrong.csv', `${header}\nA,Street lamp,48.1,17.1,0,no\nB,Street lamp,=1+2,17.1,0,no\n`);
  await expect(dialog.getByTestId('device-import-problems')).toContainText('Row 2, column latitude: wrong value.');
  await choose('pole.csv', `${header}\nA,Street lamp,89.9,17.1,0,no\n`); // the server's own rule (latitude ≤ 85.0511)
  await expect(dialog.getByTestId('device-import-problems')).toContainText('Row 1, column latitude: wrong value.');

  await choose('good.csv', `${header}\nImported lamp 1,Street lamp,48.146,17.11,0,no\nImported lamp 2,street lamp,48.147,17.111,0,no\nImported gateway,Gateway,,,0,yes\n`);
  await expect(dialog).toContainText('All 3 rows are valid.');
  await dialog.getByRole('button', { name: 'Create 3 devices' }).click();
  await expect(dialog).toContainText('3 devices were created.');
  await expectNoAxeViolations(page, 'device import');
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('button', { name: 'Imported lamp 2' })).toBeVisible();
});

test('the studio list is searched on the server, and a device clicked on the map opens in the editor', async ({ page }) => {
  await login(page, users.cityAdmin, '/studio/devices');
  const search = page.getByRole('searchbox', { name: 'Search by name' });
  await search.fill('zzzz-no-such-device');
  await search.press('Enter');
  await expect(page.getByText('Nothing found')).toBeVisible();
  await search.fill('lamp 1-1');
  await search.press('Enter');
  const found = page.getByRole('button', { name: /Street lamp 1-1/ });
  await expect(found.first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Street lamp 1-2/ })).toHaveCount(0);
  await found.first().click();
  await expect(page.getByTestId('studio-editor')).toContainText('Street lamp 1-1');
  await expectNoAxeViolations(page, 'studio list searched');
});
