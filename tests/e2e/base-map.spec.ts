// The configured base map in the browser: a second server with MAP_STYLE=openfreemap, the
// OpenFreeMap host played by the test (the machine has no internet; our own API is never faked).
// A style that loads is drawn under the CSP with the entities on it; a style that fails gives the
// offline map, a notice that passes an axe scan, and the entities still drawn.
import { expect, test, type Browser, type Page, type Route } from '@playwright/test';
import { startServerProcess, type ServerProcess } from '../../scripts/serverProcess.ts';
import { expectNoAxeViolations } from './axe.ts';
import { login, users, watchViolations } from './helpers.ts';
import { solidPng, type Rgb } from './png.ts';

/** The colour of the fake host's tiles, and of an entity with no colour value (EntityLayers.tsx). */
const TILE_COLOUR: Rgb = [250, 200, 40];
const ENTITY_COLOUR: Rgb = [0x5b, 0x6b, 0x7f];
const STYLE_URL = 'https://tiles.openfreemap.org/styles/liberty';
const CORS = { 'access-control-allow-origin': '*' };

/** The fake OpenFreeMap: a style of raster tiles, and the tiles, from the same host. */
async function serveStyle(route: Route) {
  const url = route.request().url();
  if (url === STYLE_URL) {
    return route.fulfill({
      headers: CORS,
      json: {
        version: 8,
        sources: { openfreemap: { type: 'raster', tiles: ['https://tiles.openfreemap.org/test/{z}/{x}/{y}.png'], tileSize: 256, attribution: 'OpenFreeMap' } },
        layers: [{ id: 'tiles', type: 'raster', source: 'openfreemap' }],
      },
    });
  }
  if (url.startsWith('https://tiles.openfreemap.org/test/')) return route.fulfill({ headers: CORS, contentType: 'image/png', body: solidPng(1, 1, TILE_COLOUR) });
  return route.fulfill({ status: 404, headers: CORS });
}

/** How many pixels of the map's canvas have (nearly) this colour. */
async function pixelsOf(page: Page, colour: Rgb): Promise<number> {
  const shot = await page.getByTestId('facility-map').locator('canvas.maplibregl-canvas').screenshot();
  return page.evaluate(async ({ png, colour: [red, green, blue] }) => {
    const image = new Image();
    image.src = `data:image/png;base64,${png}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let at = 0; at < data.length; at += 4) {
      if (Math.abs(data[at] - red) <= 8 && Math.abs(data[at + 1] - green) <= 8 && Math.abs(data[at + 2] - blue) <= 8) count++;
    }
    return count;
  }, { png: shot.toString('base64'), colour });
}

// a second server (which writes a day of demo history meanwhile) and screenshots of the canvas
test.describe.configure({ timeout: 150_000 });

let server: ServerProcess;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServerProcess({ ...process.env, DATA_DIR: 'memory://', SEED: 'demo', DEMO_HISTORY_DAYS: '1', SIMULATE: 'off', MQTT_PORT: '0', MAP_STYLE: 'openfreemap' });
});
test.afterAll(async () => { await server?.stop(); });

/** A page of the second server, signed in, on the dashboard. */
async function dashboard(browser: Browser, fakeHost: (route: Route) => Promise<void>) {
  const context = await browser.newContext({ baseURL: server.base, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const violations = await watchViolations(page);
  const hostRequests: string[] = [];
  await page.route('https://tiles.openfreemap.org/**', (route) => {
    hostRequests.push(route.request().url());
    return fakeHost(route);
  });
  await login(page, users.cityAdmin, '/dashboard');
  const map = page.getByTestId('facility-map');
  // Generous: the second server has just started (and writes a day of demo history) on a machine
  // the first server, Chromium and other tests share.
  await expect(map.locator('canvas.maplibregl-canvas')).toBeVisible({ timeout: 45_000 });
  await expect(page.locator('.dashboard-map-loading')).toHaveCount(0, { timeout: 45_000 });
  return { page, map, violations, hostRequests, close: () => context.close() };
}

test('the configured style is drawn under the CSP, with the entities on it', async ({ browser }) => {
  const { page, map, violations, hostRequests, close } = await dashboard(browser, serveStyle);
  await expect(map).toHaveAttribute('data-base-map', 'openfreemap');
  await expect(map.locator('.maplibregl-map')).toHaveAttribute('data-state', 'idle');
  await expect.poll(() => pixelsOf(page, TILE_COLOUR), { message: 'the fake host\'s tiles are drawn' }).toBeGreaterThan(10_000);
  await expect.poll(() => pixelsOf(page, ENTITY_COLOUR), { message: 'the entities are drawn' }).toBeGreaterThan(20);
  expect(hostRequests).toContain(STYLE_URL);
  expect(hostRequests.some((url) => url.endsWith('.png'))).toBe(true);
  await expect(page.getByTestId('base-map-notice')).toHaveCount(0);
  expect(violations).toEqual([]);
  await close();
});

test('a style that cannot be loaded gives the offline map with a notice, and the entities are still drawn', async ({ browser }) => {
  const { page, map, violations, hostRequests, close } = await dashboard(browser, (route) => route.abort('connectionrefused'));
  await expect(map).toHaveAttribute('data-base-map', 'offline');
  const notice = page.getByTestId('base-map-notice');
  await expect(notice).toHaveText('The base map could not be loaded; the offline map is shown.');
  await expect(notice).toHaveAttribute('role', 'alert');
  expect(hostRequests).toEqual([STYLE_URL]);
  await expect(map.locator('.maplibregl-map')).toHaveAttribute('data-state', 'idle');
  await expect.poll(() => pixelsOf(page, ENTITY_COLOUR), { message: 'the entities are drawn on the offline map' }).toBeGreaterThan(20);
  expect(await pixelsOf(page, TILE_COLOUR)).toBe(0);
  await expectNoAxeViolations(page, 'the offline map stands in for the configured one');
  expect(violations).toEqual([]);
  await close();
});

test('a style that never answers gives the offline map after a while', async ({ browser }) => {
  const { page, map, close } = await dashboard(browser, () => new Promise<void>(() => {}));
  await expect(map).not.toHaveAttribute('data-base-map', /./);
  await expect(map).toHaveAttribute('data-base-map', 'offline', { timeout: 15_000 });
  await expect(page.getByTestId('base-map-notice')).toBeVisible();
  await expect.poll(() => pixelsOf(page, ENTITY_COLOUR), { message: 'the entities are drawn on the offline map' }).toBeGreaterThan(20);
  await close();
});
