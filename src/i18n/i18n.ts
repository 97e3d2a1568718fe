// The i18next instance: all dictionaries bundled, English as fallback for missing keys, the
// branding variant's wording merged over them, and <html lang> kept in step.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { BrandingVariant } from '../branding/variants.ts';
import { variantTextOverrides } from '../branding/textOverrides.ts';
import { currentTokenClaims } from '../session/tokenClaims.ts';
import { dictionaries } from '../shared/i18n/dictionaries/index.ts';
import { initialLanguage } from './languagePreference.ts';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, supportedLanguageOf } from '../shared/i18n/languages.ts';

export const i18n = i18next.createInstance();

export function setUpI18n(variant: BrandingVariant): typeof i18n {
  const resources = Object.fromEntries(SUPPORTED_LANGUAGES.map((language) => [language, { translation: dictionaries[language] }]));
  void i18n.use(initReactI18next).init({
    resources,
    lng: initialLanguage(currentTokenClaims().lang),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  const overrides = variantTextOverrides[variant];
  for (const language of SUPPORTED_LANGUAGES) {
    const languageOverrides = overrides[language];
    if (languageOverrides) i18n.addResourceBundle(language, 'translation', languageOverrides, true, true);
  }
  const syncHtmlLang = (language: string) => document.documentElement.setAttribute('lang', language);
  syncHtmlLang(i18n.language);
  i18n.on('languageChanged', syncHtmlLang);
  return i18n;
}

/** After sign-in: the token's language applies, before a choice stored on this device (SPEC §1). */
export function applySessionLanguage(): void {
  const tokenLanguage = supportedLanguageOf(currentTokenClaims().lang);
  if (tokenLanguage && tokenLanguage !== i18n.language) void i18n.changeLanguage(tokenLanguage);
}
