// The interface languages and their names in their own language (shown in the selector).
export const SUPPORTED_LANGUAGES = ['en', 'sk', 'de', 'cs', 'ko', 'pt'] as const;
export type LanguageCode = (typeof SUPPORTED_LANGUAGES)[number];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: 'English',
  sk: 'Slovenčina',
  de: 'Deutsch',
  cs: 'Čeština',
  ko: '한국어',
  pt: 'Português',
};

export function isSupportedLanguage(value: string | null | undefined): value is LanguageCode {
  return !!value && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** 'de-AT' → 'de' when German is supported. */
export function supportedLanguageOf(tag: string | null | undefined): LanguageCode | undefined {
  if (!tag) return undefined;
  const base = tag.toLowerCase().split(/[-_]/)[0];
  return isSupportedLanguage(base) ? base : undefined;
}
