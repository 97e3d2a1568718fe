// The language the web app starts in (SPEC §1): the token's, else the one stored on this device,
// else the browser's, else English.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialLanguage, storeLanguage } from '../../../src/i18n/languagePreference.ts';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('initialLanguage', () => {
  it('takes the token\'s language before a stored choice, the stored choice before the browser\'s, then English', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-AT', 'de']);
    storeLanguage('sk');
    expect(initialLanguage('cs')).toBe('cs');
    expect(initialLanguage(undefined)).toBe('sk');
    expect(initialLanguage('xx')).toBe('sk'); // a language the app does not have counts as none
    localStorage.clear();
    expect(initialLanguage(undefined)).toBe('de');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR']);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('fr-FR');
    expect(initialLanguage(undefined)).toBe('en');
  });
});
