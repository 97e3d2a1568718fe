import { describe, expect, it } from 'vitest';
import { variantForHost } from '../../../src/branding/hostVariant.ts';
import { brandingOf } from '../../../src/branding/variants.ts';

describe('branding by host name', () => {
  it('chooses the variant from the host name', () => {
    expect(variantForHost('city.example.com')).toBe('city');
    expect(variantForHost('SmartCity.example.org')).toBe('city');
    expect(variantForHost('work.example.com')).toBe('work-place');
    expect(variantForHost('myworkplace.example.com')).toBe('work-place');
    expect(variantForHost('mobility.example.com')).toBe('mobility');
  });

  it('falls back to the facility variant', () => {
    expect(variantForHost('localhost')).toBe('facility');
    expect(variantForHost('127.0.0.1')).toBe('facility');
    expect(variantForHost('facility.example.com')).toBe('facility');
  });

  it('gives each variant its product title and assets', () => {
    expect(brandingOf('facility').productTitle).toBe('Terrasight Facility');
    expect(brandingOf('city').productTitle).toBe('Terrasight City');
    expect(brandingOf('work-place').productTitle).toBe('Terrasight Workplace');
    expect(brandingOf('mobility').productTitle).toBe('Terrasight Mobility');
    expect(brandingOf('mobility').logoUrl).toBe('/branding/mobility/logo.svg');
    expect(brandingOf('city').manifestUrl).toBe('/branding/city/manifest.webmanifest');
  });
});
