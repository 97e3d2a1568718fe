// The branding variants: product title and where the logo, favicon and manifest live.
export const BRANDING_VARIANTS = ['facility', 'city', 'work-place', 'mobility'] as const;
export type BrandingVariant = (typeof BRANDING_VARIANTS)[number];

export interface Branding {
  variant: BrandingVariant;
  productTitle: string;
  logoUrl: string;
  faviconUrl: string;
  manifestUrl: string;
  themeColor: string;
  /** A light tint of the theme colour for selected menu items and options. */
  themeTint: string;
}

const productTitles: Record<BrandingVariant, string> = {
  facility: 'Terrasight Facility',
  city: 'Terrasight City',
  'work-place': 'Terrasight Workplace',
  mobility: 'Terrasight Mobility',
};

// Text in the theme colour must reach 4.5:1 (WCAG 2.1 AA) on white, on the page background
// (#f5f7f9) and on the variant's tint (selected menu items and options).
const themeColors: Record<BrandingVariant, string> = {
  facility: '#0f6e6e',
  city: '#1d4fa3',
  'work-place': '#7a3fb0',
  mobility: '#b34a17', // 4.6:1 on its tint (#c2511a was 4.0:1)
};

const themeTints: Record<BrandingVariant, string> = {
  facility: '#e2f1f0',
  city: '#e5edf9',
  'work-place': '#f1e9f8',
  mobility: '#fbebe3',
};

export function brandingOf(variant: BrandingVariant): Branding {
  const folder = `/branding/${variant}`;
  return {
    variant,
    productTitle: productTitles[variant],
    logoUrl: `${folder}/logo.svg`,
    faviconUrl: `${folder}/favicon.svg`,
    manifestUrl: `${folder}/manifest.webmanifest`,
    themeColor: themeColors[variant],
    themeTint: themeTints[variant],
  };
}
