// A region of more devices than the browser lists alone: a server of its own with Big City
// (`npm run seed:city -- --devices 30000`, as the README says), whose districts hold ~2,500 devices
// each. The dashboard draws the server's clusters with their counts; the map's element counts their
// members among the entities shown; coloured by a rule, each cluster counts its devices by it;
// hovering one tells its counts, clicking one zooms to it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { startServerProcess, type ServerProcess } from '../../scripts/serverProcess.ts';
import { expectNoAxeViolations } from './axe.ts';
import { colourBy, graphql, login, openFilters, watchViolations } from './helpers.ts';

const DEVICES = 30_000;
const root = join(import.meta.dirname, '..', '..');

test.describe.configure({ timeout: 150_000 });

let server: ServerProcess;
let dataDir: string;
test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = mkdtempSync(join(tmpdir(), 'terrasight-e2e-city-'));
  const env = { ...process.env, DATA_DIR: dataDir, SEED: 'none' };
  await promisify(execFile)(process.execPath, [join(root, 'scripts', 'seedCity.ts'), '--devices', String(DEVICES)], { cwd: root, env });
  server = await startServerProcess({ ...env, SIMULATE: 'off', MQTT_PORT: '0', MAP_STYLE: 'offline' });
});
test.afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const mapElement = (page: Page) => page.getByTestId('facility-map').locator('.maplibregl-map');

/** Zooms out by keyboard until the map is at `zoom` or below, each step drawn. */
async function zoomOutTo(page: Page, zoom: number) {
  const map = mapElement(page);
  await page.locator('canvas.maplibregl-canvas').focus();
  while (Number(await map.getAttribute('data-zoom')) > zoom) {
    const before = await map.getAttribute('data-zoom');
    await page.keyboard.press('-');
    await expect(map).not.toHaveAttribute('data-zoom', before!);
  }
  await expect(map).toHaveAttribute('data-state', 'idle');
}

test('a district of thousands is drawn as the server\'s clusters, every device counted; a cluster tells its counts and opens onto its cell', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.base, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const violations = await watchViolations(page);
  await login(page, 'admin@big.city', '/dashboard');
  const map = mapElement(page);
  await expect(page.locator('canvas.maplibregl-canvas')).toBeVisible({ timeout: 45_000 });
  await expect(page.locator('.dashboard-map-loading')).toHaveCount(0, { timeout: 45_000 });
  await expect(map).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });

  // what the district holds with a position, as the API has it
  const token = await page.evaluate(() => window.localStorage.getItem('terrasight.access_token'));
  const headers = { authorization: `Bearer ${token}` };
  const regionName = (await page.getByTestId('region-select').textContent())!.trim();
  const regions = await (await page.request.get('/entity-list?search=District', { headers })).json() as { id: number; name: { en: string }; parent_id: number | null }[];
  const region = regions.find((entity) => entity.name.en === regionName && entity.parent_id === null)!;
  const rows = (await (await page.request.get(`/map-features?region=${region.id}`, { headers })).json() as { rows: unknown[][] }).rows;
  // the devices drawn as points (parking bays are areas, a few metres wide)
  const points = rows.filter((row) => Array.isArray(row[4]) && row[4].length === 2).length;
  expect(points).toBeGreaterThan(2_000);

  // the whole district in view: its devices in clusters whose counts add up to them all, each
  // counted among the entities shown (with the areas large enough to be drawn at this zoom)
  await zoomOutTo(page, 11);
  const labels = page.locator('.cluster-count');
  await expect.poll(async () => (await labels.evaluateAll((spans) => spans.map((span) => Number(span.getAttribute('data-count'))))).reduce((sum, count) => sum + count, 0)).toBe(points);
  const shown = Number(await map.getAttribute('data-visible-entities'));
  expect(shown).toBeGreaterThanOrEqual(points);
  expect(shown).toBeLessThanOrEqual(rows.filter((row) => row[4] !== null).length);
  const labelSum = async (what = 'count') => (await labels.evaluateAll((spans, name) => spans.map((span) => Number(span.getAttribute(`data-${name}`))), what))
    .reduce((sum, count) => sum + count, 0);

  // a device deleted elsewhere leaves its cluster at once (the live update asks for the place again)
  // a device no other entity lies under (a gateway keeps its devices: it is not deleted)
  const parents = new Set(rows.map((row) => row[3]));
  const device = rows.find((row) => Array.isArray(row[4]) && row[4].length === 2 && !parents.has(row[0]))![0] as number;
  const deleted = await graphql<{ delete_entity: { deleted: boolean } }>(page.request, token!, 'mutation($id: ID!) { delete_entity(id: $id) { deleted } }', { id: device });
  expect(deleted.delete_entity.deleted).toBe(true);
  await expect.poll(() => labelSum()).toBe(points - 1);

  // a maintenance window over the whole city, begun elsewhere: every cluster counts all its devices under it
  const created = await page.request.post('/create-maintenance-window', {
    headers,
    data: { input: { name: 'Everything', mode: 'device-maintenance', scope: 'tenant', schedule: { kind: 'once', starts_at: new Date(Date.now() - 60_000).toISOString(), ends_at: new Date(Date.now() + 3_600_000).toISOString() } } },
  });
  expect(created.ok()).toBe(true);
  await expect.poll(() => labelSum('maintenance')).toBe(points - 1);
  expect((await page.request.post('/delete-maintenance-window', { headers, data: { id: (await created.json() as { id: number }).id } })).ok()).toBe(true);
  await expect.poll(() => labelSum('maintenance')).toBeLessThan(points / 10);

  // coloured by a rule on being connected: each cluster counts its devices by it, the server's
  // count of those not connected is the rule's, and the legend says how clusters take colours
  await openFilters(page);
  await colourBy(page, 'Connected');
  const rules = page.getByTestId('colour-rules');
  await page.getByRole('combobox', { name: 'Condition' }).focus();
  await page.keyboard.press('ArrowDown');
  const activeOption = page.locator('.ant-select-dropdown:visible .ant-select-item-option-active');
  for (let step = 0; step < 10 && await activeOption.getAttribute('title') !== '=='; step++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await rules.getByRole('textbox', { name: 'Value', exact: true }).fill('false');
  await rules.getByRole('textbox', { name: 'Value', exact: true }).press('Enter');
  const legend = page.getByTestId('map-legend');
  await expect(legend).toContainText('== false');
  await expect(legend).toContainText('Clusters take the colour most of their devices have');
  /** The labels' counts by class (`data-classes`), added up: [not connected or in the group, the rest]. */
  const ruleSums = async () => (await labels.evaluateAll((spans) => spans.map((span) => span.getAttribute('data-classes'))))
    .reduce((sum, counts) => (counts === null ? [NaN, NaN] : counts.split(',').map((count, index) => sum[index] + Number(count))), [0, 0]);
  await expect.poll(ruleSums).toEqual([await labelSum('offline'), points - 1 - await labelSum('offline')]);
  expect((await ruleSums())[0]).toBeGreaterThan(0);
  await expect(map).toHaveAttribute('data-state', 'idle');
  await expectNoAxeViolations(page, 'the dashboard with the server\'s clusters, coloured by a rule');

  // a group chosen wins over the rules: each cluster counts its devices in the group, and the
  // city's maintenance group is exactly what the clusters count under maintenance
  const groupSelect = page.getByRole('combobox', { name: 'Groups' });
  await groupSelect.focus();
  await page.keyboard.type('Under maintenance');
  await page.keyboard.press('Enter');
  await expect(legend).toContainText('Other entities');
  const inMaintenance = await labelSum('maintenance');
  expect(inMaintenance).toBeGreaterThan(0);
  await expect.poll(ruleSums).toEqual([inMaintenance, points - 1 - inMaintenance]);
  await groupSelect.focus();
  await page.keyboard.press('Backspace'); // takes the group off: the rules again
  await expect(legend).toContainText('== false');
  await expect.poll(ruleSums).toEqual([await labelSum('offline'), points - 1 - await labelSum('offline')]);
  await page.getByTestId('filters-toggle').click(); // folds the filters away: the clusters are in the open

  // a cluster's counts on hover: how many devices, how many in alarm (the city's 2 %), and by rule
  const counts = await labels.evaluateAll((spans) => spans.map((span) => Number(span.getAttribute('data-count'))));
  const index = counts.indexOf(Math.max(...counts));
  const [notConnected] = (await labels.nth(index).getAttribute('data-classes'))!.split(',').map(Number);
  const box = (await labels.nth(index).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const card = page.getByTestId('cluster-card');
  await expect(card).toContainText(`Devices: ${counts[index].toLocaleString('en-US')}`);
  await expect(card).toContainText(/In alarm: \d+/);
  if (notConnected > 0) await expect(card.getByTestId('cluster-card-classes')).toContainText(`== false: ${notConnected.toLocaleString('en-US')}`);
  await expect(card).toContainText('Click to zoom in');

  // a click zooms in onto the cluster's cell: its devices spread out
  const zoomBefore = Number(await map.getAttribute('data-zoom'));
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(async () => Number(await map.getAttribute('data-zoom'))).toBeGreaterThan(zoomBefore + 1);
  await expect(map).toHaveAttribute('data-state', 'idle');
  // the cell fitted in view: all of the cluster's devices are shown, in smaller clusters or alone
  await expect.poll(async () => Number(await map.getAttribute('data-visible-entities'))).toBeGreaterThanOrEqual(counts[index]);
  expect(await labels.evaluateAll((spans) => Math.max(...spans.map((span) => Number(span.getAttribute('data-count')))))).toBeLessThan(counts[index]);
  expect(violations).toEqual([]);
  await context.close();
});
