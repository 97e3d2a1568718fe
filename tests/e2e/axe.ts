// The accessibility check of the browser tests: an axe scan (WCAG 2.1 A and AA) of the settled page.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectAccessible(page: Page): Promise<void> {
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const summary = violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3)
    .map((node) => `${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim()}`).join('; ')}`);
  expect(summary, page.url()).toEqual([]);
}
