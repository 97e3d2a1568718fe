// The benchmarks' browser: Debian's Chromium with WebGL on the CPU (the map), and a context signed
// in through the login page as a person would, so that the pages measured start signed in.
import { chromium, type Browser, type BrowserContext } from '@playwright/test';

export const launchBenchBrowser = (): Promise<Browser> => chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking', '--no-first-run'],
});

/** Signs the context in as the demo city's administrator (its pages share the session). */
export async function signInAsAdmin(context: BrowserContext): Promise<void> {
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('login-email').fill('admin@demo.city');
  await page.getByTestId('login-password').fill('demo1234');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('navbar').waitFor();
  await page.close();
}
