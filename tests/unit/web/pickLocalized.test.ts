import { describe, expect, it } from 'vitest';
import { pickLocalized } from '../../../src/shared/i18n/pickLocalized.ts';

describe('pickLocalized', () => {
  const name = { en: 'Main street', sk: 'Hlavná ulica', de: 'Hauptstraße' };

  it('takes the current language', () => {
    expect(pickLocalized(name, 'sk')).toBe('Hlavná ulica');
    expect(pickLocalized(name, 'de')).toBe('Hauptstraße');
  });

  it('falls back to the first available language', () => {
    expect(pickLocalized(name, 'ko')).toBe('Main street');
    expect(pickLocalized({ cs: 'Hlavní ulice', pt: 'Rua principal' }, 'en')).toBe('Hlavní ulice');
  });

  it('skips empty values', () => {
    expect(pickLocalized({ sk: '', de: 'Hauptstraße' }, 'sk')).toBe('Hauptstraße');
    expect(pickLocalized({ en: null, pt: 'Rua' }, 'en')).toBe('Rua');
  });

  it('accepts plain strings and nothing', () => {
    expect(pickLocalized('Plain', 'sk')).toBe('Plain');
    expect(pickLocalized(null, 'en')).toBe('');
    expect(pickLocalized(undefined, 'en')).toBe('');
    expect(pickLocalized({}, 'en')).toBe('');
  });
});
