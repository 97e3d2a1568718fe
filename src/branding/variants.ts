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
  /** A light tint of the theme colour for selected menu items. */
  themeTint: string;
}

const productTitles: Record<BrandingVariant, string> = {
  facility: 'Terrasight Facility',
  city: 'Terrasight City',
  'work-place': 'Terrasight Workplace',
  mobility: 'Terrasight Mobility',
};

const themeColors: Record<BrandingVariant, string> = {
  facility: '#0f6e6e',
  city: '#1d4fa3',
  'work-place': '#7a3fb0',
  mobility: '#c2511a',
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
