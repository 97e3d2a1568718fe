// Shared steps of the browser tests. They drive the real web app against the real server
// (started by playwright.config.ts on a fresh demo database): nothing is mocked.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';

export const DEMO_PASSWORD = 'demo1234';

/** Demo sign-ins created by the demo seed. */
export const users = {
  /** Demo City: every module and permission. */
  cityAdmin: 'admin@demo.city',
  /** Demo City: modules factory-dashboard and logs, no permissions. */
  cityOperator: 'operator@demo.city',
  /** Demo Facility: every module and permission. */
  facilityAdmin: 'admin@demo.facility',
} as const;

/** Fills in and submits the sign-in form on the current page (which must show it). */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * Starts the page signed in, as the login page leaves it: the tokens of POST /auth/login where the
 * web app keeps them, then the page `at` (the home page by default, once its navbar shows). The
 * login page itself is driven in login.spec.ts and accessibility.spec.ts; here it would only cost
 * every test a page load.
 */
export async function login(page: Page, email: string, at = '/', password: string = DEMO_PASSWORD): Promise<void> {
  const answer = await page.request.post('/auth/login', { data: { email, password } });
  expect(answer.ok(), `signing in as ${email}: ${answer.status()}`).toBe(true);
  const { access_token: accessToken, refresh_token: refreshToken } = await answer.json() as { access_token: string; refresh_token: string };
  await page.goto('/branding/city/favicon.svg'); // a small file of the site: its storage is the app's
  await page.evaluate(([access, refresh]) => {
    window.localStorage.setItem('terrasight.access_token', access);
    window.localStorage.setItem('terrasight.refresh_token', refresh);
  }, [accessToken, refreshToken]);
  // Straight to the page the test is about: each start of the web app costs seconds of CPU.
  await page.goto(at);
  if (at === '/') await expect(page.getByTestId('navbar')).toBeVisible();
}

/** Opens the user menu and clicks "Log out"; waits for the login page. */
export async function logout(page: Page): Promise<void> {
  const signedOut = /\/login(\?|$)/;
  // A click on 'Log out' was seen lost beside a busy CPU (the menu stayed open, nothing was sent):
  // then the menu is opened and the item clicked again.
  await expect(async () => {
    if (signedOut.test(page.url())) return;
    if (!(await page.getByTestId('logout').isVisible())) await page.getByTestId('user-menu').click({ timeout: 5_000 });
    await page.getByTestId('logout').click({ timeout: 5_000 });
    await expect(page).toHaveURL(signedOut, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

/** A label as a form field shows it (a required field's label starts with '*'). */
export const labelled = (label: string) => new RegExp(`^\\*?\\s*${label.replace(/[()]/g, '\\$&')}$`);

/** The form field labelled `label`. */
export const formField = (page: Page, label: string) => page.getByLabel(labelled(label));

/** Picks an option of the antd Select labelled `label`. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: labelled(label) }).click({ force: true }); // the selected value's text covers the input
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
}

/** The path plus query of the page, e.g. `/studio/zones?x=1`. */
export function pathAndQuery(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Records the page's CSP violations, from its own events and the console. */
export async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Signs in through the API; answers the access token. */
export async function apiToken(request: APIRequestContext, email: string, password: string = DEMO_PASSWORD): Promise<string> {
  const answer = await request.post('/auth/login', { data: { email, password } });
  expect(answer.ok()).toBe(true);
  return (await answer.json()).access_token as string;
}

/** A GraphQL call through the API; answers `data`. */
export async function graphql<T>(request: APIRequestContext, token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const answer = await request.post('/graphql', { data: { query, variables }, headers: { authorization: `Bearer ${token}` } });
  const body = await answer.json();
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}

/** A device's access token (its MQTT user name), read as an administrator. */
export async function accessTokenOf(request: APIRequestContext, token: string, id: number): Promise<string> {
  const { entity_credentials: credentials } = await graphql<{ entity_credentials: { credentialsId: string } }>(request, token,
    'query ($id: ID!) { entity_credentials(id: $id) { credentialsId } }', { id });
  return credentials.credentialsId;
}

/** Publishes one message as a device with Debian's mosquitto_pub (QoS 1) to the server under test. */
export function mosquittoPub(token: string, topic: string, message: string): Promise<void> {
  // The test's server listens for devices on the port after its own (playwright.config.ts).
  const mqttPort = String(Number(new URL(test.info().project.use.baseURL!).port) + 1);
  return new Promise((resolve, reject) => {
    execFile('mosquitto_pub', ['-h', '127.0.0.1', '-p', mqttPort, '-u', token, '-q', '1', '-t', topic, '-m', message], { timeout: 10_000 },
      (error, _stdout, stderr) => (error ? reject(new Error(`mosquitto_pub failed: ${stderr || error.message}`)) : resolve()));
  });
}

/**
 * Log entries written by the watcher engine (the demo seeds none): a new watcher `name` on the key
 * `door` of a lamp, a device value over its threshold and then one back under it — an alert and a
 * recovery. Answers the lamp's and the watcher's ids once both entries are there.
 */
export async function watcherLogEntries(request: APIRequestContext, token: string, name: string, lampFromEnd: number): Promise<{ lampId: number; watcherId: number }> {
  const headers = { authorization: `Bearer ${token}` };
  const entities = await (await request.get('/entity-list', { headers })).json() as { id: number; entity_type: { category: string } }[];
  const lamp = entities.filter((entity) => entity.entity_type.category === 'lighting').at(-lampFromEnd)!;
  const created = await request.post('/create-watcher', {
    headers, data: { input: { name, query: { key: 'door', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 0 }, entity_ids: [lamp.id], interval: 3_600 } },
  });
  expect(created.ok()).toBe(true);
  const device = await accessTokenOf(request, token, lamp.id);
  const entries = async () => (await graphql<{ log_list: { data: unknown[] } }>(request, token, `{ log_list(search: ${JSON.stringify(name)}) { data { id } } }`)).log_list.data.length;
  for (const [door, count] of [[1, 1], [0, 2]]) {
    expect((await request.post(`/api/v1/${device}/telemetry`, { data: { door } })).ok()).toBe(true);
    await expect.poll(entries, { timeout: 15_000 }).toBe(count);
  }
  return { lampId: lamp.id, watcherId: (await created.json()).id as number };
}

/** Opens the frame origins dialog (performance dashboard); answers it and its origins field. */
export async function frameOriginsDialog(page: Page) {
  await page.getByTestId('frame-origins-open').click();
  const dialog = page.getByRole('dialog', { name: 'Web page origins of this organisation' });
  return { dialog, input: dialog.getByRole('combobox', { name: 'Allowed origins' }) };
}

/** Opens the dashboard's map filters, folded away at first (the choice is kept per user). */
export async function openFilters(page: Page) {
  const toggle = page.getByTestId('filters-toggle');
  if (await toggle.getAttribute('aria-expanded') !== 'true') await toggle.click();
  await expect(page.getByRole('region', { name: 'Map filters' })).toBeVisible();
}

/** Chooses the attribute that colours the map by typing its name, as a keyboard user does (a
 * pointer's click on the option chased the dropdown while a loaded machine laid the page out). */
export async function colourBy(page: Page, attribute: string) {
  await page.getByRole('combobox', { name: 'Colour by attribute' }).focus();
  await page.keyboard.type(attribute);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('colour-select')).toContainText(attribute);
}
