// Each branding variant is installable: its manifest names the app, starts at /, stands alone and
// has the icons browsers ask for — a 192 and a 512 pixel PNG that are there and that size.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRANDING_VARIANTS } from '../../../src/branding/variants.ts';

const publicDir = join(import.meta.dirname, '..', '..', '..', 'public');

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(file: string): [number, number] {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe.each(BRANDING_VARIANTS.map((variant) => [variant]))('the %s manifest', (variant) => {
  const manifest = JSON.parse(readFileSync(join(publicDir, 'branding', variant, 'manifest.webmanifest'), 'utf8'));

  it('names the app, starts at / and opens standalone in the theme colour', () => {
    expect(manifest).toMatchObject({ start_url: '/', scope: '/', display: 'standalone' });
    expect(manifest.name).toMatch(/^Terrasight/);
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('has 192 and 512 pixel PNG icons of those sizes', () => {
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((entry: { sizes: string }) => entry.sizes === `${size}x${size}`);
      expect(icon, `${size}`).toMatchObject({ type: 'image/png' });
      expect(pngSize(join(publicDir, icon.src))).toEqual([size, size]);
    }
  });
});
