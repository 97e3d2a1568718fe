// Chooses the branding variant from the host name. The first rule whose text the host name
// contains wins; any other host gets the facility variant.
//
//   host contains   variant
//   'city'          city         (e.g. city.example.com, smartcity.example.org)
//   'work'          work-place   (e.g. work.example.com, myworkplace.example.com)
//   'mobility'      mobility     (e.g. mobility.example.com)
//   anything else   facility     (e.g. localhost, facility.example.com)
import type { BrandingVariant } from './variants.ts';

export const hostVariantRules: readonly { hostContains: string; variant: BrandingVariant }[] = [
  { hostContains: 'city', variant: 'city' },
  { hostContains: 'work', variant: 'work-place' },
  { hostContains: 'mobility', variant: 'mobility' },
];

export const DEFAULT_VARIANT: BrandingVariant = 'facility';

export function variantForHost(hostname: string): BrandingVariant {
  const host = hostname.toLowerCase();
  return hostVariantRules.find((rule) => host.includes(rule.hostContains))?.variant ?? DEFAULT_VARIANT;
}
