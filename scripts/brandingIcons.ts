// Draws each branding variant's PNG icons (192 and 512 px, which browsers ask of an installable
// app) from its favicon.svg, in Chromium: `node scripts/brandingIcons.ts` after changing a favicon.
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BRANDING_VARIANTS } from '../src/branding/variants.ts';
import { resolveChromium } from './chromium.ts';

const SIZES = [192, 512];
const branding = join(import.meta.dirname, '..', 'public', 'branding');

const browser = await chromium.launch({ executablePath: resolveChromium(), args: ['--no-sandbox'] });
try {
  for (const variant of BRANDING_VARIANTS) {
    const svg = readFileSync(join(branding, variant, 'favicon.svg'), 'utf8');
    for (const size of SIZES) {
      const page = await browser.newPage({ viewport: { width: size, height: size } });
      await page.setContent(`<body style="margin:0"><img width="${size}" height="${size}" style="display:block" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body>`);
      await page.screenshot({ path: join(branding, variant, `icon-${size}.png`), omitBackground: true });
      await page.close();
    }
  }
} finally {
  await browser.close();
}
