// Browser tests: the real server and web app (`node scripts/start.ts`, which builds the web app
// when its build is missing or stale) on a fresh demo database, driven in the system Chromium.
// `npm test` finds or installs Chromium and sets CHROMIUM_PATH; run alone: `npm run test:e2e`.
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Two servers, each with its own demo database, and a browser for each: the specs are split between
// them (SECOND_SERVER_SPECS to the second, every other spec to the first), each half one spec at a
// time, so no test ever shares a server with another test running. A browser test waits on its
// browser, its server and the round trips between them in turn; two of them side by side keep two
// cores busy where one left a fifth of them idle.
// Fixed ports (E2E_PORT to change them; the second server's is 10 above): reuseExistingServer is
// off, so a port already in use fails the run instead of testing some other server. Devices
// (mosquitto_pub in the live tests) reach a server's MQTT listener on the port after its own
// (helpers.ts `mosquittoPub`).
const PORT = Number(process.env.E2E_PORT || 3111);
const PORTS = [PORT, PORT + 10];
const SECOND_SERVER_SPECS = [
  'dashboard.spec.ts', 'app-update.spec.ts', 'accessibility.spec.ts', 'kpi-charts.spec.ts', 'apiUsers.spec.ts',
  'maintenance.spec.ts', 'lighting.spec.ts', 'menu.spec.ts', 'overlay.spec.ts',
].map((spec) => `**/${spec}`);
const CI = !!process.env.CI;
// The project's Node 24 (npm dependency `node`) runs the TypeScript server even when the
// system Node is older.
const projectNode = join(import.meta.dirname, 'node_modules', '.bin', 'node');
const node = existsSync(projectNode) ? projectNode : 'node';

// One data directory per run (a directory in it for each server). Playwright evaluates this file in
// its runner and again in each worker; the workers inherit the runner's environment and so reuse
// the same directory.
if (!process.env.TERRASIGHT_E2E_DATA_DIR) {
  const dir = mkdtempSync(join(tmpdir(), `terrasight-e2e-${process.pid}-`));
  process.env.TERRASIGHT_E2E_DATA_DIR = dir;
  // The web server is stopped before the runner exits.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
}
const dataDir = process.env.TERRASIGHT_E2E_DATA_DIR;

// Chromium's own omnibox popup is a web page it prepares in every new browser context, at about
// 40 % of the cost of starting ours; no test has an address bar. Chromium takes only the last
// --disable-features, so Playwright's own list (playwright-core's chromium switches) comes first.
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
  'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup',
];

const reporter: ReporterDescription[] = [['list']];
if (process.env.PLAYWRIGHT_JSON_OUTPUT_FILE) reporter.push(['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE }]);

export default defineConfig({
  testDir: 'tests/e2e',
  workers: PORTS.length, // one per server, and each server's specs one at a time (projects' `workers`)
  fullyParallel: false,
  // E2E_RETRIES=0 for the run that proves no test is flaky (docs/testing.md).
  retries: process.env.E2E_RETRIES ? Number(process.env.E2E_RETRIES) : CI ? 1 : 0,
  forbidOnly: CI,
  // Generous: a flow of three page loads and an axe scan beside a busy CPU still ends in time.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter,
  outputDir: 'test-results',
  use: {
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    // As a user who asked the system to reduce motion: antd opens and closes at once and MapLibre
    // jumps instead of flying, so no step waits out an animation (usePrefersReducedMotion.ts).
    reducedMotion: 'reduce',
    // A trace (a DOM snapshot after every action) costs a sixth of a test's time: it is recorded
    // when a failed test runs again (CI retries once; E2E_RETRIES=1 locally). A failure keeps its
    // screenshot and the page's accessibility snapshot (error-context.md) in any case. Without
    // its screenshots (a frame after every action): the snapshots say more, for less.
    trace: { mode: 'on-first-retry', screenshots: false },
    // The service worker precaches the whole app at a first visit: only the update test has it.
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--use-angle=swiftshader', // WebGL (the map) on the CPU
        '--enable-unsafe-swiftshader',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        // No compositing on the GPU: SwiftShader emulates it on the CPU, at a third of a page's time.
        '--disable-gpu-compositing',
        // V8's optimising compilers (Maglev, TurboFan) spend CPU on code a test page runs for
        // seconds; without them a fresh page's load costs Chromium about 8 % less CPU, an axe scan
        // about 20 % less (bench/README, "The test suite": fourth round).
        '--js-flags=--no-opt --no-maglev',
        `--disable-features=${DISABLED_FEATURES.join(',')}`,
      ],
    },
  },
  projects: PORTS.map((port, index) => ({
    name: `chromium-${index + 1}`,
    workers: 1,
    use: { baseURL: `http://127.0.0.1:${port}` },
    ...(index === 0 ? { testIgnore: SECOND_SERVER_SPECS } : { testMatch: SECOND_SERVER_SPECS }),
  })),
  // Started one after the other: the first builds the web app when its build is missing or stale.
  webServer: PORTS.map((port, index) => ({
    command: `${node} scripts/start.ts`,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dataDir!, String(index + 1)),
      MQTT_PORT: String(port + 1),
      SIMULATE: 'off',
      SEED: 'demo',
      MAP_STYLE: 'offline', // no base map host in tests (tests/e2e/base-map.spec.ts starts its own server for one)
    },
    url: `http://127.0.0.1:${port}/api/docs/json`,
    timeout: 240_000, // the first start builds the web app
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
  })),
});
