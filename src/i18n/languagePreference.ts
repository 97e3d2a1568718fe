// Which language to start in (SPEC §1): the token's language (the user's own, when their account
// names one), else the choice stored on this device, else the browser language, else English. A
// choice made in the selector is stored under `language`.
import { DEFAULT_LANGUAGE, isSupportedLanguage, supportedLanguageOf } from '../shared/i18n/languages.ts';
import type { LanguageCode } from '../shared/i18n/languages.ts';

import { DEVICE_KEYS } from '../session/storedKeys.ts';

export const LANGUAGE_STORAGE_KEY = DEVICE_KEYS.language;

export function storedLanguage(): LanguageCode | undefined {
  try {
    const value = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isSupportedLanguage(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function storeLanguage(language: LanguageCode): void {
  window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
}

export function browserLanguage(): LanguageCode | undefined {
  const tags = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  for (const tag of tags) {
    const language = supportedLanguageOf(tag);
    if (language) return language;
  }
  return undefined;
}

export function initialLanguage(tokenLanguage: string | undefined): LanguageCode {
  return supportedLanguageOf(tokenLanguage) ?? storedLanguage() ?? browserLanguage() ?? DEFAULT_LANGUAGE;
}
