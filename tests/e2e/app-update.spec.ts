// A deploy while tabs are open (SPEC §4: a persistent notice with Refresh). A second server serves
// a copy of the built web app with its service worker; the test deploys twice by building the web
// app again into that copy (BUILD_ID names each build), as an operator's deploy does. The server
// announces each new build over the live connection: the notice shows within 60 s; an ignored
// update followed by another still activates the newest; Refresh (by keyboard) reloads every tab
// into it; lazy routes load afterwards without a chunk error; a check while offline says nothing.
// The notice passes axe in English and in Slovak (the second tab). Before any deploy: the service
// worker keeps every file the dashboard loads, the map's worker script too, so that a tab left open
// past the day a deploy keeps the earlier build's files still starts its map.
import { expect, test, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../../scripts/serverProcess.ts';
import { expectNoAxeViolations } from './axe.ts';
import { login, users } from './helpers.ts';

const root = join(import.meta.dirname, '..', '..');
// builds of the web app (20-60 s each on two cores) and a second server
test.describe.configure({ timeout: 360_000 });
test.use({ serviceWorkers: 'allow' });

let server: ServerProcess;
let webDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  webDir = mkdtempSync(join(tmpdir(), 'terrasight-deploy-'));
  cpSync(join(root, 'dist'), webDir, { recursive: true });
  server = await startServerProcess({ ...process.env, DATA_DIR: 'memory://', SEED: 'demo', DEMO_HISTORY_DAYS: '1', SIMULATE: 'off', MQTT_PORT: '0', MAP_STYLE: 'offline', WEB_DIR: webDir });
});
test.afterAll(async () => {
  await server?.stop();
  rmSync(webDir, { recursive: true, force: true });
});

/** Builds the web app into the served directory under `buildId`, as a deploy does. */
function deploy(buildId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const build = spawn(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error', '--outDir', webDir], {
      cwd: root, env: { ...process.env, BUILD_ID: buildId }, stdio: ['ignore', 'ignore', 'inherit'],
    });
    build.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the build ended with ${code}`))));
  });
}

const buildOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.build);

/** Until this page is controlled by a service worker (its first one takes it over without a reload). */
const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });

test('the service worker keeps every file the dashboard loaded, the map\'s worker script too', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.base, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await login(page, users.cityAdmin);
  await controlled(page);
  await page.goto('/dashboard');
  await expect(page.getByTestId('facility-map').locator('.maplibregl-map')).toHaveAttribute('data-state', 'idle', { timeout: 45_000 });
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname).filter((path) => path.startsWith('/assets/')));
  const kept = await page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    return paths;
  });
  expect(loaded.filter((path) => /\/maplibre-gl-worker-[\w-]+\.mjs$/.test(path))).toHaveLength(1);
  expect(loaded.filter((path) => !kept.includes(path))).toEqual([]);
  await context.close();
});

test('a deploy shows the notice in open tabs; Refresh after an ignored update brings every tab to the newest build', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.base, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await login(page, users.cityAdmin);
  await controlled(page);
  const firstBuild = await buildOf(page);
  const other = await context.newPage();
  await other.goto('/applications');
  await controlled(other);
  await other.getByTestId('language-select').click();
  await other.getByTestId('language-option-sk').click();
  await expect(other.locator('html')).toHaveAttribute('lang', 'sk');

  // Offline, a look (at the focus) finds nothing and says nothing.
  await context.setOffline(true);
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await page.waitForTimeout(2_000);
  await expect(page.getByTestId('app-update-notice')).toHaveCount(0);
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
  await context.setOffline(false);

  await deploy('e2e-second');
  const notice = page.getByTestId('app-update-notice');
  await expect(notice).toBeVisible({ timeout: 60_000 });
  await expect(notice).toContainText('A new version of Terrasight is available');
  expect(await buildOf(page)).toBe(firstBuild); // nothing reloads before Refresh
  await expectNoAxeViolations(page, 'the update notice (en)');
  const otherNotice = other.getByTestId('app-update-notice');
  await expect(otherNotice).toContainText('K dispozícii je nová verzia Terrasightu');
  await expectNoAxeViolations(other, 'the update notice (sk)');

  // The update is ignored; another deploy follows, and its worker replaces the waiting one.
  await page.evaluate(async () => {
    const registration = (await navigator.serviceWorker.getRegistration())!;
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing!;
      worker.addEventListener('statechange', () => {
        if (worker.state === 'installed') document.documentElement.dataset.newestWaits = 'yes';
      });
    });
  });
  await deploy('e2e-third');
  await expect(page.locator('html')).toHaveAttribute('data-newest-waits', 'yes', { timeout: 60_000 });
  await expect(notice).toBeVisible();

  // A form with unsaved changes (the Slovak tab): Refresh asks first, and a "no" keeps the page as it is.
  await other.goto('/watcher/create');
  await expect(other.getByTestId('form-watcher')).toBeVisible();
  const name = other.getByRole('textbox', { name: 'Názov', exact: true });
  await name.fill('Rozpracovaný strážca');
  const declined = other.waitForEvent('dialog').then(async (dialog) => {
    expect(dialog.message()).toBe('Naozaj chcete odísť? Máte neuložené zmeny.');
    await dialog.dismiss();
  });
  await otherNotice.getByRole('button', { name: 'Obnoviť' }).click();
  await declined;
  await other.waitForTimeout(1_000);
  expect(await buildOf(other)).toBe(firstBuild);
  await expect(name).toHaveValue('Rozpracovaný strážca');
  // when the first tab's Refresh reloads this one, the browser asks before its unsaved form goes
  other.on('dialog', (dialog) => void dialog.accept());

  // Refresh in the first tab, by keyboard: every tab reloads into the newest build.
  await notice.getByRole('button', { name: 'Refresh' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.documentElement.dataset.build === 'e2e-third', undefined, { timeout: 30_000 });
  await expect.poll(() => buildOf(other), { timeout: 30_000 }).toBe('e2e-third');
  await expect(page.getByTestId('app-update-notice')).toHaveCount(0);

  // Lazy routes of the new build load (their chunks from the new worker's cache), with no chunk error.
  for (const path of ['/dashboard', '/studio/regions', '/logs', '/performance-dashboard', '/profile/password']) {
    await page.goto(path);
    await expect(page.getByTestId('navbar')).toBeVisible();
    await expect(page.locator('.page-spinner')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByRole('main')).toBeVisible();
  }
  expect(errors).toEqual([]);
  await context.close();
});
