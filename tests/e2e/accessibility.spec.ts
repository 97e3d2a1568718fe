// The shell passes an axe scan (WCAG 2.1 AA): sign-in (English and Slovak, with the language
// selector open), applications, profile, password change and the 404 page, with the user menu
// and the language selector open; sign-in works by keyboard alone. The other branding variants
// (their colours differ) are scanned too, reached by host name: Chromium sends *.localhost to
// this machine.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { DEMO_PASSWORD, login, submitLogin, users } from './helpers.ts';

/** Opens a dropdown by its button and waits until its menu has finished appearing. */
async function openDropdown(page: Page, button: Locator, item: Locator): Promise<void> {
  await button.click();
  await expect(item).toBeVisible();
  // antd animates the menu in; scanning mid-animation measures half-transparent text
  await expect(page.locator('.ant-dropdown[class*="-enter"], .ant-dropdown[class*="-appear"]')).toHaveCount(0);
}

/** Waits until no dropdown menu is shown, so that the next scan sees the page alone. */
async function expectNoDropdown(page: Page): Promise<void> {
  await expect(page.locator('.ant-dropdown:visible')).toHaveCount(0);
}

test('the sign-in page, in English and in Slovak, with the language selector open', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-email')).toBeVisible();
  await expectNoAxeViolations(page, 'sign-in, English');

  await openDropdown(page, page.getByTestId('language-select'), page.getByTestId('language-option-sk'));
  await expectNoAxeViolations(page, 'sign-in, language selector open');

  await page.getByTestId('language-option-sk').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sk');
  await expect(page.getByTestId('login-submit')).toHaveText('Prihlásiť sa');
  await expectNoDropdown(page);
  await expectNoAxeViolations(page, 'sign-in, Slovak');
});

test('signing in by keyboard: Tab goes e-mail, password, submit; Enter signs in', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-email')).toBeFocused(); // the page starts in the e-mail field
  // From the control before it (the language selector), Tab walks the form in order.
  await page.getByTestId('language-select').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('login-email')).toBeFocused();
  await page.keyboard.type(users.cityAdmin);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('login-password')).toBeFocused();
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('login-submit')).toBeFocused();
  // Back in the password field, Enter submits the form.
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('login-password')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/applications$/, { timeout: 15_000 });
});

test('the shell pages, with the user menu and the language selector open', async ({ page }) => {
  test.setTimeout(60_000); // six scans
  await login(page, users.cityAdmin);
  for (const path of ['/applications', '/profile', '/profile/password', '/no-such-page']) {
    await page.goto(path);
    await expect(page.getByTestId('navbar')).toBeVisible();
    await expectNoAxeViolations(page);
  }

  await page.goto('/applications');
  await expect(page.getByTestId('navbar')).toBeVisible();
  await openDropdown(page, page.getByTestId('user-menu'), page.getByTestId('logout'));
  await expectNoAxeViolations(page, 'user menu open');
  await page.keyboard.press('Escape');
  await expectNoDropdown(page);

  await openDropdown(page, page.getByTestId('language-select'), page.getByTestId('language-option-sk'));
  await expectNoAxeViolations(page, 'language selector open');
});

for (const variant of ['city', 'work-place', 'mobility']) {
  test(`the ${variant} variant's colours: sign-in with the language selector open, a selected side menu item`, async ({ page, baseURL }) => {
    const origin = new URL(baseURL!);
    origin.hostname = `${variant}.localhost`; // the variant is chosen from the host name
    await page.goto(new URL('/login', origin).href);
    await expect(page.getByTestId('login-email')).toBeVisible();
    await openDropdown(page, page.getByTestId('language-select'), page.getByTestId('language-option-sk'));
    await expectNoAxeViolations(page, `${variant} variant, language selector open`);
    await page.keyboard.press('Escape');
    await expectNoDropdown(page);

    await submitLogin(page, users.cityAdmin, DEMO_PASSWORD);
    await expect(page.getByTestId('navbar')).toBeVisible();
    await page.goto(new URL('/profile/password', origin).href);
    await expect(page.locator('.ant-menu-item-selected')).not.toHaveCount(0);
    await expectNoAxeViolations(page, `${variant} variant`);
  });
}
