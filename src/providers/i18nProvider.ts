// refine I18nProvider on top of the app's i18next instance.
import type { I18nProvider } from '@refinedev/core';
import { i18n } from '../i18n/i18n.ts';
import { storeLanguage } from '../i18n/languagePreference.ts';
import { isSupportedLanguage } from '../shared/i18n/languages.ts';

export const i18nProvider: I18nProvider = {
  // refine calls both translate(key, options, defaultMessage) and translate(key, defaultMessage).
  translate: (key: string, options?: Record<string, unknown> | string, defaultMessage?: string) => {
    const [values, fallback] = typeof options === 'string' ? [undefined, options] : [options, defaultMessage];
    return String(i18n.t(key, { defaultValue: fallback, ...values }));
  },
  changeLocale: async (language: string) => {
    if (isSupportedLanguage(language)) storeLanguage(language);
    await i18n.changeLanguage(language);
  },
  getLocale: () => i18n.language,
};
