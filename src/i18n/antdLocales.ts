// antd's own texts (date pickers, empty states, …) in the interface language.
import cs_CZ from 'antd/locale/cs_CZ';
import de_DE from 'antd/locale/de_DE';
import en_US from 'antd/locale/en_US';
import ko_KR from 'antd/locale/ko_KR';
import pt_PT from 'antd/locale/pt_PT';
import sk_SK from 'antd/locale/sk_SK';
import type { Locale } from 'antd/es/locale';
import { isSupportedLanguage } from '../shared/i18n/languages.ts';
import type { LanguageCode } from '../shared/i18n/languages.ts';

const antdLocales: Record<LanguageCode, Locale> = { en: en_US, sk: sk_SK, de: de_DE, cs: cs_CZ, ko: ko_KR, pt: pt_PT };

export function antdLocaleOf(language: string): Locale {
  return isSupportedLanguage(language) ? antdLocales[language] : en_US;
}
