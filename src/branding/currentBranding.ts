// The branding of this page load, chosen once from the host name, and the start-up step that
// points the favicon, manifest and theme colour at it.
import { variantForHost } from './hostVariant.ts';
import { brandingOf } from './variants.ts';
import type { Branding } from './variants.ts';

export const currentBranding: Branding = brandingOf(variantForHost(window.location.hostname));

function setLink(id: string, rel: string, href: string): void {
  let link = document.getElementById(id) as HTMLLinkElement | null;
  if (!link) {
    link = document.createElement('link');
    link.id = id;
    link.rel = rel;
    document.head.appendChild(link);
  }
  link.href = href;
}

export function applyBrandingToDocument(branding: Branding): void {
  setLink('branding-favicon', 'icon', branding.faviconUrl);
  setLink('branding-manifest', 'manifest', branding.manifestUrl);
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', branding.themeColor);
  document.title = branding.productTitle;
}
