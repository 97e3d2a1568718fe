// The accessibility check of the browser tests: an axe scan (WCAG 2.1 A and AA) of the settled page.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** How many failing nodes of each rule the failure message lists. */
const NODES_SHOWN = 3;

/**
 * Waits until the page has settled (network idle, no antd spinner spinning), scans it (but the
 * transient toasts) with axe
 * against WCAG 2.1 AA and fails with one readable entry per violated rule: its id, impact and
 * help, then the first few failing nodes with their targets and axe's failure summary.
 * `context` (e.g. "user menu open") names the state in the failure message; the URL is always given.
 */
export async function expectNoAxeViolations(page: Page, context?: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  // Toasts come and go on their own timer: one fading out during the scan reads as low contrast
  // halfway through its fade. Their colours are antd's (dark text on white at rest).
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA_TAGS).exclude('.ant-message').analyze();
  const report = violations.map((violation) => {
    const nodes = violation.nodes.slice(0, NODES_SHOWN).map((node) => {
      const summary = (node.failureSummary ?? '').split('\n').map((line) => line.trim()).filter(Boolean).join(' ');
      return `    ${node.target.join(' ')}\n      ${summary}`;
    });
    const more = violation.nodes.length > NODES_SHOWN ? [`    … and ${violation.nodes.length - NODES_SHOWN} more`] : [];
    return [`${violation.id} (${violation.impact ?? 'unknown impact'}, ${violation.nodes.length} node(s)): ${violation.help}`, ...nodes, ...more].join('\n');
  });
  const where = context ? `${page.url()} (${context})` : page.url();
  expect(report.length, `axe violations on ${where}:\n${report.join('\n')}`).toBe(0);
}
