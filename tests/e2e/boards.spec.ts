// Performance boards in the browser, against the real server: a board created from the list, a
// component of each type (the form's rich-text editor, URL field and file upload, the others through the API),
// arranging by mouse, touch and keyboard (a drag near the window's edge scrolling it) (announced, Esc putting back) kept over a reload, the print
// view ready with every component drawn, the XSS corpus shown through rich text, image and web
// page components running nothing, and axe scans of the list, board and print pages in English
// and Slovak.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { XSS_HTML, XSS_URLS } from '../support/xssPayloads.ts';
import { expectNoAxeViolations } from './axe.ts';
import { apiToken, frameOriginsDialog, graphql, login, users } from './helpers.ts';

interface Created { id: string }

const ONE_PIXEL_PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

async function createBoard(request: APIRequestContext, token: string, name: string) {
  const { create_board: board } = await graphql<{ create_board: Created }>(request, token,
    'mutation ($name: JSON) { create_board(name: $name) { id } }', { name: { en: name, sk: `${name} (sk)` } });
  return Number(board.id);
}

async function createComponent(request: APIRequestContext, token: string, boardId: number, fields: { name: string; type: string; definition: Record<string, unknown>; layout?: Record<string, number> }) {
  const { create_component: component } = await graphql<{ create_component: Created }>(request, token,
    'mutation ($name: String, $type: String, $definition: JSON, $layout: JSON, $board_ids: [Int!]) { create_component(name: $name, type: $type, definition: $definition, layout: $layout, board_ids: $board_ids) { id } }',
    { ...fields, board_ids: [boardId] });
  return Number(component.id);
}

/** The first KPI of the tenant. */
async function firstKpi(request: APIRequestContext, token: string) {
  const list = await (await request.get('/kpi-list', { headers: { authorization: `Bearer ${token}` } })).json() as { id: number }[];
  return list[0].id;
}

/** A board with one component of each type, made through the API. */
async function boardWithEveryType(request: APIRequestContext, name: string) {
  const token = await apiToken(request, users.cityAdmin);
  const boardId = await createBoard(request, token, name);
  const kpiId = await firstKpi(request, token);
  await createComponent(request, token, boardId, { name: 'Chart', type: 'kpi', definition: { kpi_id: kpiId }, layout: { x: 0, y: 0, w: 12, h: 10 } });
  await createComponent(request, token, boardId, { name: 'Notes', type: 'richtext', definition: { html: '<h2>Shift notes</h2><p><a href="https://example.com/">help</a></p>' }, layout: { x: 12, y: 0, w: 12, h: 5 } });
  await createComponent(request, token, boardId, { name: 'Logo', type: 'image', definition: { url: '/branding/city/logo.svg' }, layout: { x: 12, y: 5, w: 6, h: 5 } });
  await createComponent(request, token, boardId, { name: 'Clip', type: 'video', definition: { url: '/no-such-clip.mp4' }, layout: { x: 18, y: 5, w: 6, h: 5 } });
  await createComponent(request, token, boardId, { name: 'Home page', type: 'iframe', definition: { url: '/applications' }, layout: { x: 0, y: 10, w: 24, h: 6 } });
  return { token, boardId };
}

/** A component on the board, by its name (a card's title). */
const item = (page: Page, name: string) => page.getByTestId('board-item').filter({ has: page.locator('.ant-card-head-title', { hasText: new RegExp(`^${name}$`) }) });

test('a board is created from the list, gets components from its form, and opens from its row', async ({ page }) => {
  test.slow();
  await login(page, users.cityAdmin, '/performance-dashboard');
  await expect(page.getByTestId('list-board')).toBeVisible();
  await page.getByTestId('list-create').click();
  await page.getByLabel('Name (English)').fill('Night shift');
  await page.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/performance-dashboard(\?|$)/);
  await page.getByTestId('row-open').filter({ hasText: 'Night shift' }).first().click();
  await expect(page.getByTestId('board-page')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Night shift' })).toBeVisible();

  await page.getByTestId('board-edit-toggle').click();
  // rich text through the editor
  await page.getByTestId('component-add').click();
  const drawer = page.getByTestId('component-drawer');
  await drawer.getByLabel(/Name/).first().fill('Welcome');
  await drawer.getByRole('combobox', { name: /Type/ }).click();
  await page.getByTitle('Rich text').click();
  const editor = drawer.getByRole('textbox', { name: 'Text' });
  await editor.click();
  await page.keyboard.type('Hello board');
  await drawer.getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type(' bold');
  await drawer.getByTestId('form-save').click();
  await expect(item(page, 'Welcome').getByTestId('board-richtext')).toContainText('Hello board bold');
  await expect(item(page, 'Welcome').locator('strong')).toHaveText('bold');

  // an image whose URL the board may not load: the form refuses it; a path of the site is kept
  await page.getByTestId('component-add').click();
  await drawer.getByLabel(/Name/).first().fill('Picture');
  await drawer.getByRole('combobox', { name: /Type/ }).click();
  await page.getByTitle('Image').click();
  await drawer.getByLabel('URL').fill('javascript:alert(1)');
  await drawer.getByTestId('form-save').click();
  await expect(drawer.getByText(/URL not allowed/)).toBeVisible();
  await drawer.getByLabel('URL').fill('/branding/city/logo.svg');
  await drawer.getByTestId('form-save').click();
  await expect(item(page, 'Picture').getByTestId('board-image')).toHaveAttribute('src', '/branding/city/logo.svg');

  // an image uploaded from the form: stored with the board, shown from a file read with the session
  await page.getByTestId('component-add').click();
  await drawer.getByLabel(/Name/).first().fill('Photo');
  await drawer.getByRole('combobox', { name: /Type/ }).click();
  await page.getByTitle('Image').click();
  await drawer.locator('input[type=file]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
  await expect(page.getByText('File uploaded')).toBeVisible();
  await expect(drawer.getByLabel('URL')).toHaveValue(/^\/board-media\/[0-9a-f-]{36}$/);
  await drawer.getByTestId('form-save').click();
  await page.reload();
  await expect(page.getByTestId('board-item')).toHaveCount(3);
  const photo = item(page, 'Photo').getByTestId('board-image');
  await expect(photo).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
});

test('components move and resize by mouse and by keyboard, announced, and keep their place over a reload', async ({ page, request }) => {
  test.slow();
  const { boardId } = await boardWithEveryType(request, 'Arranged');
  await login(page, users.cityAdmin, `/performance-dashboard/${boardId}`);
  await expect(page.getByTestId('board-item')).toHaveCount(5);
  // a viewer of the grid (not arranging) can move nothing
  await expect(page.locator('.react-resizable-handle:visible, .board-item-handle')).toHaveCount(0);
  await expect(page.getByTestId('board-grid').getByRole('group')).toHaveCount(0);
  await page.getByTestId('board-edit-toggle').click();

  // keyboard: pick up, two right, one down, wider, Escape puts back; then again and put down
  const notes = item(page, 'Notes');
  const announcement = page.getByTestId('board-announcement');
  await notes.focus();
  await page.keyboard.press('Enter');
  await expect(announcement).toHaveText('Notes picked up at column 13, row 1.');
  await page.keyboard.press('ArrowLeft');
  await expect(announcement).toHaveText('Notes moved to column 12, row 1.');
  await page.keyboard.press('Escape');
  await expect(announcement).toHaveText('Move cancelled: Notes is back at column 13, row 1.');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(announcement).toHaveText('Notes moved to column 13, row 3.');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(announcement).toHaveText('Notes resized to 12 columns by 6 rows.');
  const saved = page.waitForResponse((response) => response.url().endsWith('/graphql') && (response.request().postData() ?? '').includes('update_component'));
  await page.keyboard.press(' ');
  await expect(announcement).toHaveText('Notes put down at column 13, row 3.');
  await saved;

  // mouse: the chart's corner dragged wider by a few columns
  const chart = item(page, 'Home page');
  const handle = chart.locator('.react-resizable-handle');
  await chart.scrollIntoViewIfNeeded();
  const box = (await handle.boundingBox())!;
  const resized = page.waitForResponse((response) => (response.request().postData() ?? '').includes('update_component'));
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + 100, { steps: 8 });
  await page.mouse.up();
  await expect(announcement).toHaveText(/^Home page resized to 24 columns by \d+ rows\.$/);
  await resized;
  const rows = Number((await announcement.textContent())!.match(/by (\d+) rows/)![1]);
  expect(rows).toBeGreaterThan(6);

  // mouse: the logo dragged by its handle to the left edge
  const logo = item(page, 'Logo');
  // In the middle of the window: scrolled just "into view", it can sit under the fixed navbar,
  // which then takes the press (and the drag selects text instead).
  await logo.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const grip = (await logo.locator('.board-item-handle').boundingBox())!;
  const gridBox = (await page.getByTestId('board-grid').boundingBox())!;
  const moved = page.waitForResponse((response) => (response.request().postData() ?? '').includes('update_component'));
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(gridBox.x + 20 + (grip.x - (await logo.boundingBox())!.x), grip.y + grip.height / 2 + 200, { steps: 12 });
  await page.mouse.up();
  await expect(announcement).toHaveText(/^Logo moved to column 1, row \d+\.$/);
  await moved;

  await page.reload();
  await page.getByTestId('board-edit-toggle').click();
  await item(page, 'Notes').focus();
  await page.keyboard.press('Enter');
  await expect(announcement).toHaveText('Notes picked up at column 13, row 3.');
  await page.keyboard.press('Escape');
  await item(page, 'Home page').focus();
  await page.keyboard.press('Enter');
  await expect(announcement).toHaveText(/^Home page picked up at column 1, row \d+\.$/);
  await page.keyboard.press('Shift+ArrowUp');
  await expect(announcement).toHaveText(`Home page resized to 24 columns by ${rows - 1} rows.`);
  await page.keyboard.press('Escape');
  await item(page, 'Logo').focus();
  await page.keyboard.press('Enter');
  await expect(announcement).toHaveText(/^Logo picked up at column 1, row \d+\.$/);
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true });

  test('a finger drags a component by its grip, and a drag near the window\'s bottom edge scrolls the page', async ({ page, request }) => {
    test.slow();
    const { token, boardId } = await boardWithEveryType(request, 'Touched');
    // a tall text far below, so that the board is taller than the window
    await createComponent(request, token, boardId, { name: 'Far below', type: 'richtext', definition: { html: '<p>Far below</p>' }, layout: { x: 0, y: 60, w: 12, h: 10 } });
    await login(page, users.cityAdmin, `/performance-dashboard/${boardId}`);
    await expect(page.getByTestId('board-item')).toHaveCount(6);
    await page.getByTestId('board-edit-toggle').click();
    const announcement = page.getByTestId('board-announcement');

    // a finger on the logo's grip, carried to the left edge of the grid
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x = 0, y = 0) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const logo = item(page, 'Logo');
    await logo.scrollIntoViewIfNeeded();
    const grip = (await logo.locator('.board-item-handle').boundingBox())!;
    const gridBox = (await page.getByTestId('board-grid').boundingBox())!;
    const start = { x: grip.x + grip.width / 2, y: grip.y + grip.height / 2 };
    const end = { x: gridBox.x + 20 + (grip.x - (await logo.boundingBox())!.x), y: start.y + 60 };
    const moved = page.waitForResponse((response) => (response.request().postData() ?? '').includes('update_component'));
    await touch('touchStart', start.x, start.y);
    for (let step = 1; step <= 12; step += 1) {
      await touch('touchMove', start.x + ((end.x - start.x) * step) / 12, start.y + ((end.y - start.y) * step) / 12);
    }
    await touch('touchEnd');
    await expect(announcement).toHaveText(/^Logo moved to column 1, row \d+\.$/);
    await moved;

    // a finger held near the bottom edge while dragging: the page scrolls under it (a mouse gets
    // the browser's own scrolling; a finger only ours)
    await page.evaluate(() => window.scrollTo(0, 0));
    const notesGrip = (await item(page, 'Notes').locator('.board-item-handle').boundingBox())!;
    const gridTop = async () => (await page.getByTestId('board-grid').boundingBox())!.y;
    const before = await gridTop();
    const x = notesGrip.x + notesGrip.width / 2;
    const bottom = page.viewportSize()!.height - 8;
    await touch('touchStart', x, notesGrip.y + notesGrip.height / 2);
    for (let step = 1; step <= 10; step += 1) await touch('touchMove', x, notesGrip.y + ((bottom - notesGrip.y) * step) / 10);
    await expect.poll(async () => {
      await touch('touchMove', x + 1, bottom);
      return before - await gridTop();
    }, { timeout: 5_000 }).toBeGreaterThan(100);
    await touch('touchEnd');
  });
});

test('the print view draws every component, then prints, without the navbar', async ({ page, request }) => {
  test.slow();
  const { boardId } = await boardWithEveryType(request, 'Printed');
  await page.addInitScript(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => { (window as unknown as { printed: number }).printed += 1; };
  });
  await login(page, users.cityAdmin, `/performance-dashboard/${boardId}/print`);
  const root = page.getByTestId('board-print');
  await expect(root).toHaveAttribute('data-print-ready', 'true', { timeout: 15_000 });
  await expect(page.getByTestId('navbar')).toHaveCount(0);
  await expect(root.getByTestId('board-item')).toHaveCount(5);
  await expect(root.getByTestId('kpi-chart')).toHaveAttribute('data-drawn', 'true');
  await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  const pageRule = () => page.evaluate(() => Array.from(document.querySelectorAll('style')).map((style) => style.textContent ?? '').find((text) => text.includes('@page')));
  await expect.poll(pageRule).toContain('size: A4 landscape');
  await page.getByText('Portrait (A4)').click();
  await expect.poll(pageRule).toContain('size: A4 portrait');
  await expect(root).toHaveAttribute('data-orientation', 'portrait');
});

test('the XSS corpus through rich text, image and web page components runs nothing', async ({ page, request }) => {
  test.slow();
  const token = await apiToken(request, users.cityAdmin);
  const boardId = await createBoard(request, token, 'Hostile');
  await createComponent(request, token, boardId, { name: 'Corpus', type: 'richtext', definition: { html: XSS_HTML.join('\n') }, layout: { x: 0, y: 0, w: 24, h: 40 } });
  // the server refuses every hostile URL (400 / a validation error), for each URL type
  for (const type of ['image', 'video', 'iframe']) {
    for (const url of XSS_URLS) {
      const answer = await request.post('/graphql', {
        headers: { authorization: `Bearer ${token}` },
        data: { query: 'mutation ($d: JSON, $b: [Int!], $t: String) { create_component(name: "x", type: $t, definition: $d, board_ids: $b) { id } }', variables: { d: { url }, b: [boardId], t: type } },
      });
      const body = await answer.json() as { errors?: unknown[] };
      expect(body.errors, `${type} ${JSON.stringify(url)}`).toBeDefined();
    }
  }
  await createComponent(request, token, boardId, { name: 'Framed', type: 'iframe', definition: { url: 'https://example.com/' }, layout: { x: 0, y: 40, w: 12, h: 6 } });
  await createComponent(request, token, boardId, { name: 'Own page', type: 'iframe', definition: { url: '/applications' }, layout: { x: 12, y: 40, w: 12, h: 6 } });

  const dialogs: string[] = [];
  page.on('dialog', (dialog) => { dialogs.push(dialog.message()); void dialog.dismiss(); });
  await login(page, users.cityAdmin, `/performance-dashboard/${boardId}`);
  const corpus = item(page, 'Corpus').getByTestId('board-richtext');
  await expect(corpus).toBeVisible();
  await page.mouse.move(200, 300);
  await corpus.hover();
  await page.waitForTimeout(1_000);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await expect(corpus.locator('script, iframe, svg, math, style, img, form, object, embed, [onerror], [onload], [style]')).toHaveCount(0);
  for (const href of await corpus.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')))) {
    expect(href).toMatch(/^(https:\/\/|mailto:|\/(?![/\\]))/);
  }
  // a web page from an origin the tenant did not list is not requested; the frame policy is this
  // site only (the demo tenant lists no origin); this site's own page is framed without scripts
  await expect(item(page, 'Framed').getByTestId('url-not-allowed')).toBeVisible();
  await expect(item(page, 'Framed').locator('iframe')).toHaveCount(0);
  await expect(page.locator('meta[data-tenant-frame-policy]')).toHaveAttribute('content', "frame-src 'self'");
  await expect(item(page, 'Own page').getByTestId('board-iframe')).toHaveAttribute('sandbox', '');
  await expect(item(page, 'Own page').getByTestId('board-iframe')).toHaveAttribute('referrerpolicy', 'no-referrer');
  // the same in the print view and in the editor
  await page.goto(`/performance-dashboard/${boardId}/print`);
  await expect(page.getByTestId('board-print')).toHaveAttribute('data-print-ready', 'true', { timeout: 15_000 });
  await page.goto(`/performance-dashboard/${boardId}`);
  await page.getByTestId('board-edit-toggle').click();
  await item(page, 'Corpus').getByTestId('component-edit').click();
  await expect(page.getByTestId('rich-text-input')).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

for (const language of ['en', 'sk'] as const) {
  test(`the board list, a board and its print view pass axe (${language})`, async ({ page, request }) => {
    test.slow();
    const { boardId } = await boardWithEveryType(request, `Accessible ${language}`);
    await login(page, users.cityAdmin);
    if (language === 'sk') {
      await page.getByTestId('language-select').click();
      await page.getByTestId('language-option-sk').click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'sk');
    }
    await page.goto('/performance-dashboard');
    await expect(page.getByTestId('list-board')).toBeVisible();
    await expectNoAxeViolations(page, 'board list');
    await page.goto(`/performance-dashboard/${boardId}`);
    await expect(page.getByTestId('board-item')).toHaveCount(5);
    await expect(page.getByTestId('kpi-chart')).toHaveAttribute('data-drawn', 'true');
    await expectNoAxeViolations(page, 'board');
    await page.getByTestId('board-edit-toggle').click();
    await expectNoAxeViolations(page, 'board, arranging');
    await page.addInitScript(() => { window.print = () => undefined; });
    await page.goto(`/performance-dashboard/${boardId}/print`);
    await expect(page.getByTestId('board-print')).toHaveAttribute('data-print-ready', 'true', { timeout: 15_000 });
    await expectNoAxeViolations(page, 'print view');
  });
}

test('a board administrator lists the origins whose web pages boards show with their scripts; the operator cannot', async ({ page, request }) => {
  test.slow();
  const token = await apiToken(request, users.cityAdmin);
  const setOrigins = (origins: string[]) => request.put('/tenant/iframe-origins', { headers: { authorization: `Bearer ${token}` }, data: { origins } });
  try {
    const boardId = await createBoard(request, token, 'Framed pages');
    await createComponent(request, token, boardId, { name: 'Status page', type: 'iframe', definition: { url: 'https://status.frames.example/' }, layout: { x: 0, y: 0, w: 12, h: 6 } });
    await login(page, users.cityAdmin, '/performance-dashboard');
    const { dialog, input } = await frameOriginsDialog(page);
    await input.fill('http://plain.example');
    await input.press('Enter');
    await dialog.getByTestId('frame-origins-save').click();
    await expect(dialog.getByText(/http:\/\/plain\.example: An allowed origin is https:\/\//)).toBeVisible();
    await expectNoAxeViolations(page, 'frame origins dialog');
    await input.press('Backspace');
    await input.fill('https://status.frames.example');
    await input.press('Enter');
    await dialog.getByTestId('frame-origins-save').click();
    await expect(dialog.getByTestId('frame-origins-saved')).toBeVisible();
    await dialog.getByTestId('frame-origins-reload').click();
    await expect(page.locator('meta[data-tenant-frame-policy]')).toHaveAttribute('content', "frame-src 'self' https://status.frames.example");

    await page.goto(`/performance-dashboard/${boardId}`);
    const frame = item(page, 'Status page').getByTestId('board-iframe');
    await expect(frame).toHaveAttribute('data-trusted', 'true');
    await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin');

    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await login(page, users.cityOperator, '/performance-dashboard');
    await expect(page.getByTestId('list-board')).toBeVisible();
    await expect(page.getByTestId('frame-origins-open')).toHaveCount(0);
  } finally {
    expect((await setOrigins([])).status()).toBe(200);
  }
});
