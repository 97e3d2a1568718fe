// `node bench/boardPrint.ts [--postgres] [--runs 5] [--components 20]` (`npm run bench:board-print`;
// needs `npx vite build` first). A board's print view in headless Chromium: a board of 20
// components (KPI charts over the demo's telemetry, rich text and images) made through the API,
// then `/performance-dashboard/{id}/print` opened in a fresh page `--runs` times, timed from the
// navigation until every component is drawn with its data (`data-print-ready="true"`, which is
// when the page calls the browser's print dialog; stubbed here). Goal: ready in ≤ 5 s.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launchBenchBrowser, signInAsAdmin } from './browser.ts';
import { launchServer, machineLine } from './launch.ts';
import { numberArgument } from './arguments.ts';

const RUNS = numberArgument('--runs', 5);
const COMPONENTS = numberArgument('--components', 20);
const GOAL_MS = 5_000;
const log = (line: string) => console.error(`[bench ${(performance.now() / 1000).toFixed(1)} s] ${line}`);

if (!existsSync(join(import.meta.dirname, '..', 'dist', 'index.html'))) {
  console.error('The web app is not built: run `npx vite build` first.');
  process.exit(1);
}

const server = await launchServer({ postgres: process.argv.includes('--postgres') });
const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const answer = await fetch(`${server.base}${path}`, { ...init, headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}`, ...init.headers } });
  const body = await answer.json() as T & { errors?: { message: string }[] };
  if (!answer.ok || body.errors) throw new Error(`${path}: ${answer.status} ${JSON.stringify(body.errors ?? body)}`);
  return body;
};
const graphql = async <T>(query: string, variables: Record<string, unknown>) =>
  (await call<{ data: T }>('/graphql', { method: 'POST', body: JSON.stringify({ query, variables }) })).data;

/** The board: KPI charts (two in three), rich text and images, two to a row. */
async function makeBoard(): Promise<number> {
  const kpis = (await call<{ id: number }[]>('/kpi-list')).map((kpi) => kpi.id);
  if (!kpis.length) throw new Error('the demo tenant has no KPI');
  const { create_board: board } = await graphql<{ create_board: { id: string } }>(
    'mutation ($name: JSON) { create_board(name: $name) { id } }', { name: { en: 'Print bench' } });
  for (let at = 0; at < COMPONENTS; at++) {
    const layout = { x: (at % 2) * 12, y: Math.floor(at / 2) * 8, w: 12, h: 8 };
    const [type, definition] = at % 3 !== 2
      ? ['kpi', { kpi_id: kpis[at % kpis.length] }]
      : at % 2 ? ['richtext', { html: `<h3>Note ${at}</h3><p>${'Facility text. '.repeat(40)}</p>` }] : ['image', { url: '/branding/city/logo.svg' }];
    await graphql('mutation ($name: String, $type: String, $definition: JSON, $layout: JSON, $board_ids: [Int!]) { create_component(name: $name, type: $type, definition: $definition, layout: $layout, board_ids: $board_ids) { id } }',
      { name: `Component ${at + 1}`, type, definition, layout, board_ids: [Number(board.id)] });
  }
  return Number(board.id);
}

try {
  const boardId = await makeBoard();
  log(`board ${boardId} with ${COMPONENTS} components on ${server.database}`);
  const browser = await launchBenchBrowser();
  const context = await browser.newContext({ baseURL: server.base, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  // the print dialog would block the page: record when it is asked for instead
  await context.addInitScript(() => { window.print = () => { (window as unknown as { printedAt: number }).printedAt = performance.now(); }; });
  await signInAsAdmin(context);

  const times: number[] = [];
  const printed: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await context.newPage();
    const from = performance.now();
    await page.goto(`/performance-dashboard/${boardId}/print`, { waitUntil: 'commit' });
    await page.locator('[data-testid="board-print"][data-print-ready="true"]').waitFor({ timeout: 60_000 });
    times.push(performance.now() - from);
    // the page's own clock: from its navigation to the print call
    printed.push(await page.waitForFunction(() => (window as unknown as { printedAt?: number }).printedAt).then((handle) => handle.jsonValue() as Promise<number>));
    const drawn = await page.locator('[data-testid="board-item"]').count();
    log(`run ${run + 1}/${RUNS}: ready in ${times.at(-1)!.toFixed(0)} ms, print asked at ${printed.at(-1)!.toFixed(0)} ms of the page's clock, ${drawn} components`);
    await page.close();
  }
  await browser.close();
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`\nBoard print view: ${COMPONENTS} components, ${RUNS} runs — ${server.database}`);
  console.log(machineLine());
  console.log('');
  console.log('| ready (all drawn) p50 / max ms | print asked p50 / max ms (page clock) |');
  console.log('| ---: | ---: |');
  const printedSorted = [...printed].sort((a, b) => a - b);
  console.log(`| ${median.toFixed(0)} / ${sorted.at(-1)!.toFixed(0)} | ${printedSorted[Math.floor(printedSorted.length / 2)].toFixed(0)} / ${printedSorted.at(-1)!.toFixed(0)} |`);
  console.log(`Goal: ready in ≤ ${GOAL_MS / 1000} s — ${sorted.at(-1)! <= GOAL_MS ? 'met' : 'NOT met'} (max ${(sorted.at(-1)! / 1000).toFixed(2)} s).`);
} finally {
  await server.stop();
}
