// The web app's own timers moved by the test (Playwright's page.clock) instead of waited out: a
// toast's 5 s, an alert's 6 s, the HTTP client's 15 s, the 30 s polls. The fake clock runs with
// real time until a test stops it; then only the test moves it on. Install before the first page.
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Installs the page's fake clock, and stamps each toast with the moment it appeared on that clock
 * (`data-shown-at`): how long it stays is measured on the page's time, not the test's.
 */
export async function installClock(page: Page) {
  await page.clock.install();
  await page.addInitScript(() => {
    new MutationObserver(() => {
      for (const notice of document.querySelectorAll('.ant-notification-notice:not([data-shown-at])')) notice.setAttribute('data-shown-at', String(Date.now()));
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The page's time now (ms). */
export const pageNow = (page: Page) => page.evaluate(() => Date.now());

/**
 * Stops the page's clock a moment from now (ahead of it: it runs until then); answers the page's
 * time where it stopped. A busy machine may take longer than that moment to get there: then
 * further ahead.
 */
export async function pauseClock(page: Page): Promise<number> {
  for (let ahead = 500; ; ahead *= 2) {
    const at = await pageNow(page) + ahead;
    try {
      await page.clock.pauseAt(at);
      return at;
    } catch (error) {
      if (!String(error).includes('to the past') || ahead >= 8_000) throw error;
    }
  }
}

const STEP_MS = 100;

/**
 * With the clock paused: moves it on a step at a time (the page's timers due meanwhile run) until
 * `check` passes, and fails once more than `limitMs` of the page's time went by. How long the
 * machine takes in real time does not count: only the page's timers (a poll, a retry) could make
 * a wrong page pass, and they see the page's time.
 */
export async function withinPageTime(page: Page, limitMs: number, check: () => Promise<void>) {
  for (let moved = 0; ; moved += STEP_MS) {
    try {
      await check();
      return;
    } catch (error) {
      if (moved >= limitMs) throw error;
    }
    await page.clock.runFor(STEP_MS);
  }
}

/** Whether every element `notices` finds is leaving (antd's fade-out has begun); true when none is left. */
const leaving = (notices: Locator) => notices.evaluateAll((elements) => elements.every((element) => element.closest('.ant-notification-fade-leave') !== null));

/**
 * The toast `notice`, shown, stays `durationMs` from when it appeared (its `data-shown-at`) and
 * then goes: still there and not fading a second before, fading or gone half a second after.
 */
export async function expectToastFor(page: Page, notice: Locator, durationMs: number) {
  const shownAt = Number(await notice.first().getAttribute('data-shown-at'));
  expect(shownAt, 'the toast carries the time it appeared (installClock)').toBeGreaterThan(0);
  await page.clock.pauseAt(shownAt + durationMs - 1_000);
  await expect(notice).toBeVisible();
  expect(await leaving(notice)).toBe(false);
  await page.clock.runFor(1_500);
  await expect.poll(() => leaving(notice)).toBe(true);
  await page.clock.resume();
  await expect(notice).toHaveCount(0);
}
